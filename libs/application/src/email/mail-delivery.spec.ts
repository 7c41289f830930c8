import { MAIL_RETRY_POLICY, retryDelayMs } from './mail-delivery';

describe('mail retry backoff', () => {
  it('doubles from the first delay and stays at the cap', () => {
    const policy = { firstDelayMs: 30_000, maxDelayMs: 3_600_000 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(8, policy)).toBe(3_600_000);
    expect(retryDelayMs(1000, policy)).toBe(3_600_000);
  });

  it('gives an SMTP server away for days its chance before giving up', () => {
    let total = 0;
    for (let n = 1; n < MAIL_RETRY_POLICY.maxAttempts; n++) total += retryDelayMs(n, MAIL_RETRY_POLICY);
    expect(total / 86_400_000).toBeGreaterThan(2);
    expect(total / 86_400_000).toBeLessThan(3);
  });
});
