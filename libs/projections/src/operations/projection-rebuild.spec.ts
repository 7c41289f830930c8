import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { countEventsBetween, type EventStorePort, type GlobalPosition, type RecordedEvent } from '@app/application';
import { openSqlite, SqliteEventStore, SqliteReadModelCopies } from '@app/infrastructure';
import { makeTempDir } from '@app/testing';
import { defineProjection } from '../shared/projection';
import { ProjectionRebuilder } from './projection-rebuild';

/**
 * An event store positioned as EventStoreDB is: `commit<<64 | prepare`, sparse (byte offsets in
 * its log), and without a cheap count. Wraps the embedded store, mapping its dense positions.
 */
const pack = (p: GlobalPosition) => ((p * 4096n) << 64n) | (p * 4096n - 17n);
const unpack = (p: GlobalPosition) => (p >> 64n) / 4096n;
const packed = (e: RecordedEvent): RecordedEvent => ({ ...e, position: pack(e.position) });
function esdbLike(inner: SqliteEventStore): EventStorePort {
  return {
    appendToStream: async (s, events, o) => {
      const r = await inner.appendToStream(s, events, o);
      return { ...r, position: pack(r.position) };
    },
    readStream: async (s, o) => {
      const r = await inner.readStream(s, o);
      return { ...r, events: r.events.map(packed) };
    },
    readAll: async ({ after, maxCount }) => (await inner.readAll({ after: after === undefined ? undefined : unpack(after), maxCount })).map(packed),
    headPosition: async () => {
      const head = await inner.headPosition();
      return head === undefined ? undefined : pack(head);
    },
    subscribeToAll: ({ after, batchSize }, handler) => inner.subscribeToAll({ after: after === undefined ? undefined : unpack(after), batchSize }, (batch) => handler(batch.map(packed))),
    health: () => inner.health(),
    close: () => inner.close(),
  };
}

const tally = defineProjection<{ n: number }>({
  name: 'tally',
  collection: { name: 'tally_docs', fields: [{ name: 'n', type: 'number' }] },
  handles: ['Tick'],
  idsOf: (event) => [event.streamId],
  evolve: (doc) => ({ n: (doc?.n ?? 0) + 1 }),
});

describe('progress, lag and ETA are counted in events, not in log positions', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let inner: SqliteEventStore;
  let db: ReturnType<typeof openSqlite>;
  beforeEach(async () => {
    dir = makeTempDir('rebuild-progress-');
    db = openSqlite(join(dir.path, 'events.sqlite'));
    inner = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
    for (let s = 0; s < 5; s++) {
      await inner.appendToStream(`tally-${s}`, Array.from({ length: 30 }, () => ({ id: randomUUID(), type: 'Tick', data: {}, metadata: { schemaVersion: 1 } as never })), { expectedRevision: 'no_stream' });
    }
  });
  afterEach(async () => {
    await inner.close();
    db.close();
    dir.remove();
  });

  it('countEventsBetween counts EventStoreDB-like positions exactly, and estimates past its read limit', async () => {
    const store = esdbLike(inner);
    const head = (await store.headPosition())!;
    expect(head).toBeGreaterThan(10n ** 20n);
    expect(await countEventsBetween(store, undefined, head)).toEqual({ count: 150, exact: true });
    expect(await countEventsBetween(store, pack(100n), head)).toEqual({ count: 50, exact: true });
    expect(await countEventsBetween(store, head, head)).toEqual({ count: 0, exact: true });
    const estimated = await countEventsBetween(store, undefined, head, { limit: 60, pageSize: 7 });
    expect(estimated.exact).toBe(false);
    expect(Math.abs(estimated.count - 150)).toBeLessThanOrEqual(3);
    // The embedded store counts with its index.
    expect(await countEventsBetween(inner, 20n, 150n)).toEqual({ count: 130, exact: true });
  });

  it('a rebuild reports done/total and its ETA in events; the list reports lag in events', async () => {
    const store = esdbLike(inner);
    const live = SqliteReadModelCopies.openLive(dir.path, 'normal');
    const logger = { info: () => undefined, error: () => undefined };
    try {
      const samples: { done: number; total: number; etaSeconds: number | null }[] = [];
      const rebuilder = new ProjectionRebuilder(store, live, undefined, logger, { batchSize: 20, progressIntervalMs: 1 }, [tally]);
      // Nothing applied yet: 150 events behind.
      expect((await rebuilder.list()).find((r) => r.name === 'tally')?.lag).toBe('150');
      const result = await rebuilder.rebuild('all', (p) => samples.push({ done: p.done, total: p.total, etaSeconds: p.etaSeconds }));
      expect(result).toMatchObject({ phase: 'done', error: null, done: 150, total: 150 });
      for (const s of samples) {
        expect(s.total).toBe(150);
        expect(s.done).toBeLessThanOrEqual(150);
        if (s.etaSeconds !== null) expect(s.etaSeconds).toBeLessThan(3600);
      }
      expect(await live.readStore.get('tally_docs', 'tally-3')).toEqual({ n: 30 });
      const rows = await rebuilder.list();
      expect(rows.find((r) => r.name === 'tally')?.lag).toBe('0');
      await inner.appendToStream('tally-0', [{ id: randomUUID(), type: 'Tick', data: {}, metadata: { schemaVersion: 1 } as never }], { expectedRevision: 29n });
      expect((await rebuilder.list()).find((r) => r.name === 'tally')?.lag).toBe('1');
    } finally {
      await live.copies.close();
    }
  });
});
