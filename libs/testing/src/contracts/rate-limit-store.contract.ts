import { randomUUID } from 'node:crypto';
import type { RateLimitStorePort } from '@app/application';

export type RateLimitStoreFixture = { store: RateLimitStorePort; cleanup(): Promise<void> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The behaviour every RateLimitStorePort adapter must have (fixed windows, no lost counts). */
export function rateLimitStoreContract(adapterName: string, open: () => Promise<RateLimitStoreFixture>) {
  describe(`RateLimitStorePort contract: ${adapterName}`, () => {
    let fixture: RateLimitStoreFixture;
    beforeAll(async () => (fixture = await open()));
    afterAll(async () => fixture.cleanup());
    const key = () => `user:${randomUUID()}`;

    it('counts requests for a key from 1, with the time left in the window', async () => {
      const k = key();
      const first = await fixture.store.hit(k, 60);
      expect(first.count).toBe(1);
      expect(first.resetInMs).toBeGreaterThan(0);
      expect(first.resetInMs).toBeLessThanOrEqual(60_000);
      expect((await fixture.store.hit(k, 60)).count).toBe(2);
      expect((await fixture.store.hit(k, 60)).count).toBe(3);
    });

    it('keeps keys apart', async () => {
      const a = key();
      const b = key();
      await fixture.store.hit(a, 60);
      await fixture.store.hit(a, 60);
      expect((await fixture.store.hit(b, 60)).count).toBe(1);
    });

    it('loses no count under concurrent hits', async () => {
      const k = key();
      const counts = await Promise.all(Array.from({ length: 100 }, () => fixture.store.hit(k, 60)));
      expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    });

    it('starts again from 1 once a key is reset, and keeps other keys', async () => {
      const [k, other] = [key(), key()];
      await fixture.store.hit(k, 60);
      await fixture.store.hit(k, 60);
      await fixture.store.hit(other, 60);
      await fixture.store.reset(k);
      expect((await fixture.store.hit(k, 60)).count).toBe(1);
      expect((await fixture.store.hit(other, 60)).count).toBe(2);
      await fixture.store.reset(key()); // an unknown key: nothing to forget
    });

    it('starts again from 1 once the window has passed', async () => {
      const k = key();
      await fixture.store.hit(k, 1);
      await fixture.store.hit(k, 1);
      await sleep(1100);
      expect((await fixture.store.hit(k, 1)).count).toBe(1);
    });
  });
}
