import { randomUUID } from 'node:crypto';
import type { IdAllocatorPort } from '@app/application';

export type IdAllocatorFixture = { allocator: IdAllocatorPort; cleanup(): Promise<void> };

/** The behaviour every IdAllocatorPort adapter must have. */
export function idAllocatorContract(adapterName: string, open: () => Promise<IdAllocatorFixture>) {
  describe(`IdAllocatorPort contract: ${adapterName}`, () => {
    let fixture: IdAllocatorFixture;
    beforeAll(async () => (fixture = await open()));
    afterAll(async () => fixture.cleanup());
    const sequence = () => `seq_${randomUUID()}`;

    it('starts at 1 and increases by one', async () => {
      const s = sequence();
      expect([await fixture.allocator.next(s), await fixture.allocator.next(s), await fixture.allocator.next(s)]).toEqual([1, 2, 3]);
    });

    it('hands out blocks of consecutive ids', async () => {
      const s = sequence();
      await fixture.allocator.next(s);
      expect(await fixture.allocator.nextBlock(s, 100)).toBe(2);
      expect(await fixture.allocator.next(s)).toBe(102);
    });

    it('advanceTo moves a sequence past an id, never backwards, consuming nothing', async () => {
      const s = sequence();
      expect(await fixture.allocator.next(s)).toBe(1);
      await fixture.allocator.advanceTo(s, 10);
      expect(await fixture.allocator.next(s)).toBe(11);
      await fixture.allocator.advanceTo(s, 5);
      expect(await fixture.allocator.next(s)).toBe(12);
      const fresh = sequence();
      await fixture.allocator.advanceTo(fresh, 7);
      expect(await fixture.allocator.next(fresh)).toBe(8);
    });

    it('remembers how far the log was scanned, never moving it backwards', async () => {
      // Shared by every test of a store: compare with what is there.
      const before = (await fixture.allocator.logScannedThrough()) ?? 0n;
      const ahead = before + 1000n;
      await fixture.allocator.markLogScanned(ahead);
      expect(await fixture.allocator.logScannedThrough()).toBe(ahead);
      await fixture.allocator.markLogScanned(ahead - 1n);
      expect(await fixture.allocator.logScannedThrough()).toBe(ahead);
      // Positions beyond 2^64 (EventStoreDB's packed commit/prepare pairs) keep their order.
      const packed = (123n << 64n) | 45n;
      await fixture.allocator.markLogScanned(packed);
      expect(await fixture.allocator.logScannedThrough()).toBe(packed > ahead ? packed : ahead);
    });

    it('keeps sequences independent', async () => {
      const a = sequence();
      const b = sequence();
      await fixture.allocator.next(a);
      await fixture.allocator.next(a);
      expect(await fixture.allocator.next(b)).toBe(1);
    });

    it('never hands out the same id twice to concurrent callers', async () => {
      const s = sequence();
      const ids = await Promise.all(Array.from({ length: 200 }, () => fixture.allocator.next(s)));
      expect(new Set(ids).size).toBe(200);
      expect(Math.max(...ids)).toBe(200);
    });

    it('rejects a block size below one', async () => {
      await expect(fixture.allocator.nextBlock(sequence(), 0)).rejects.toThrow();
    });
  });
}
