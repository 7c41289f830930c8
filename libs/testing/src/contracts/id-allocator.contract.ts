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
