import type { Response } from 'express';
import type { RateLimitStorePort } from '@app/application';
import { InProcessRateLimitStore } from '@app/infrastructure/embedded/in-process-rate-limit-store';
import { RateLimitedError } from './api.errors';
import { RateLimiter } from './rate-limiter';

const fakeResponse = () => {
  const headers: Record<string, string> = {};
  return { headers, response: { headersSent: false, setHeader: (k: string, v: string) => (headers[k] = v) } as unknown as Response };
};

describe('RateLimiter', () => {
  let now = 1_000_000;
  const store = () => new InProcessRateLimitStore(() => now);

  it('lets `requests` through per window, then refuses with the seconds until the window ends', async () => {
    const limiter = new RateLimiter(store(), undefined, () => now);
    for (let i = 0; i < 3; i++) await limiter.hit('user:1', { requests: 3, windowSeconds: 60 });
    now += 20_500;
    const refused = await limiter.hit('user:1', { requests: 3, windowSeconds: 60 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(refused).toMatchObject({ code: 'RATE_LIMIT_HIT', httpStatus: 429, retryAfterSeconds: 40, extra: { 'retry-after': 40 } });
    now += 40_000;
    await expect(limiter.hit('user:1', { requests: 3, windowSeconds: 60 })).resolves.toBeUndefined();
  });

  it("sets Zulip's X-RateLimit headers", async () => {
    const limiter = new RateLimiter(store(), undefined, () => now);
    const { headers, response } = fakeResponse();
    await limiter.hit('ip:1.2.3.4', { requests: 10, windowSeconds: 60 }, response);
    expect(headers).toEqual({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '9', 'X-RateLimit-Reset': String(Math.ceil((now + 60_000) / 1000)) });
  });

  it('counts nothing when the limit is 0 (disabled)', async () => {
    const counting = store();
    const limiter = new RateLimiter(counting);
    for (let i = 0; i < 5; i++) await limiter.hit('user:1', { requests: 0, windowSeconds: 60 });
    expect((await counting.hit('user:1', 60)).count).toBe(1);
  });

  it('lets requests through and warns when the store is unreachable', async () => {
    const warnings: unknown[] = [];
    const broken: RateLimitStorePort = { hit: () => Promise.reject(new Error('ECONNREFUSED')), reset: () => Promise.reject(new Error('ECONNREFUSED')), close: async () => undefined };
    const limiter = new RateLimiter(broken, { warn: ((entry: unknown) => warnings.push(entry)) as never });
    await expect(limiter.hit('user:1', { requests: 1, windowSeconds: 60 })).resolves.toBeUndefined();
    await expect(limiter.reset('authenticate:hamlet@acme.test')).resolves.toBeUndefined();
    expect(warnings).toHaveLength(2);
  });
});
