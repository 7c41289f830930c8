import { CryptoRandom } from './crypto-random';

describe('CryptoRandom', () => {
  const random = new CryptoRandom();

  it('draws time-ordered UUIDs (version 7): the current time in milliseconds first, then random bits', () => {
    const before = Date.now();
    const ids = Array.from({ length: 200 }, () => random.timeOrderedUuid());
    const after = Date.now();
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const ms = parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(after);
    }
    expect(new Set(ids).size).toBe(200);
  });

  it('draws later ids after earlier ones (by their time)', async () => {
    const first = random.timeOrderedUuid();
    await new Promise((resolve) => setTimeout(resolve, 3));
    expect(random.timeOrderedUuid().slice(0, 13) > first.slice(0, 13)).toBe(true);
  });

  it('keeps uuid() a random (version 4) UUID', () => {
    expect(random.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
