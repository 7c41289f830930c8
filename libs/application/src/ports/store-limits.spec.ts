import type { ReadStoreBatch } from './read-store.port';
import { changeWeight, chunkPositionedChanges, chunkReadStoreBatch, MONGODB_LIMITS } from './store-limits';
import type { PositionedChanges } from './user-message-store.port';

const puts = (collection: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ type: 'put' as const, id: `${collection}-${from + i}`, doc: { i: from + i }, position: BigInt(from + i + 1) }));

describe('MongoDB limits', () => {
  it('keeps transactions near MongoDB’s advice of 1,000 documents, and batches at 1,000 events', () => {
    expect(MONGODB_LIMITS.maxWritesPerTransaction).toBeLessThanOrEqual(1000);
    expect(MONGODB_LIMITS.maxBatchEvents).toBeLessThanOrEqual(1000);
    expect(MONGODB_LIMITS.maxWriteBehindEvents).toBeLessThan(100_000);
  });
});

describe('chunkReadStoreBatch', () => {
  it('leaves a batch within the bound as one transaction', () => {
    const batch: ReadStoreBatch = { writes: [{ collection: 'a', ops: puts('a', 3) }], checkpoints: [{ name: 'a', position: 3n }] };
    expect(chunkReadStoreBatch(batch, 3)).toEqual([batch]);
  });

  it('cuts a catch-up commit into chunks of at most the bound, in order, the checkpoints with the last', () => {
    const batch: ReadStoreBatch = {
      writes: [
        { collection: 'a', ops: [...puts('a', 1500), { type: 'delete', id: 'gone-a' }] },
        { collection: 'b', ops: puts('b', 1200) },
      ],
      checkpoints: [{ name: 'a', position: 99n }, { name: 'b', position: 99n }],
    };
    const chunks = chunkReadStoreBatch(batch, 1000);
    expect(chunks).toHaveLength(3);
    for (const c of chunks) expect(c.writes.reduce((n, w) => n + w.ops.length, 0)).toBeLessThanOrEqual(1000);
    expect(chunks.slice(0, -1).every((c) => c.checkpoints.length === 0)).toBe(true);
    expect(chunks[2].checkpoints).toEqual(batch.checkpoints);
    // Every write exactly once, puts in their order, the delete in the last chunk.
    const flat = chunks.flatMap((c) => c.writes.flatMap((w) => w.ops.map((op) => `${w.collection}:${op.id}`)));
    expect(flat).toHaveLength(2701);
    expect(new Set(flat).size).toBe(2701);
    expect(flat.slice(0, 1500)).toEqual(puts('a', 1500).map((op) => `a:${op.id}`));
    expect(flat[flat.length - 1]).toBe('a:gone-a');
    expect(chunks[2].writes.some((w) => w.ops.some((op) => op.type === 'delete'))).toBe(true);
  });

  it('refuses a bound below one', () => {
    expect(() => chunkReadStoreBatch({ writes: [], checkpoints: [] }, 0)).toThrow();
  });
});

describe('chunkPositionedChanges', () => {
  const sent = (position: bigint, recipients: number): PositionedChanges => ({
    position,
    changes: [
      {
        type: 'message-added',
        message: { id: Number(position), realmId: 1, senderId: 1, streamId: 1, topic: 't', dmKey: null, searchText: '', hasLink: false, hasImage: false, hasAttachment: false } as never,
        rows: Array.from({ length: recipients }, (_, u) => ({ userId: u + 1, flags: 0 })),
      },
    ],
  });

  it('groups events into transactions of at most the bound, each checkpointed at its last event, the last at the batch’s end', () => {
    // 5,000 events to 9 recipients each: 10 documents an event, 50,000 in all.
    const batches = Array.from({ length: 5000 }, (_, i) => sent(BigInt(i + 1), 9));
    const groups = chunkPositionedChanges(batches, 5003n, 1000);
    expect(groups).toHaveLength(50);
    for (const g of groups) expect(g.batches.reduce((n, b) => n + b.changes.reduce((k, c) => k + changeWeight(c), 0), 0)).toBeLessThanOrEqual(1000);
    expect(groups[0].checkpoint).toBe(100n);
    expect(groups[48].checkpoint).toBe(4900n);
    expect(groups[49].checkpoint).toBe(5003n);
    expect(groups.flatMap((g) => g.batches)).toEqual(batches);
  });

  it('never splits an event: one heavier than the bound is a transaction of its own', () => {
    const groups = chunkPositionedChanges([sent(1n, 10), sent(2n, 5000), sent(3n, 10)], 3n, 1000);
    expect(groups.map((g) => g.batches.map((b) => b.position))).toEqual([[1n], [2n], [3n]]);
    expect(groups.map((g) => g.checkpoint)).toEqual([1n, 2n, 3n]);
  });

  it('moves the checkpoint even with no change to apply', () => {
    expect(chunkPositionedChanges([], 42n, 1000)).toEqual([{ batches: [], checkpoint: 42n }]);
  });
});
