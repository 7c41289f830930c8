import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ReadStorePort } from '@app/application';
import { openSqlite, SqliteEventStore, SqliteReadStore } from '@app/infrastructure';
import { makeTempDir } from '@app/testing';
import { defineProjection } from './projection';
import { Projector } from './projector';

type Tally = { count: number };
const tally = defineProjection<Tally>({
  name: 'tally',
  collection: { name: 'tally', fields: [] },
  handles: ['Counted'],
  idsOf: (e) => [String((e.data as { key: string }).key)],
  evolve: (doc) => ({ count: (doc?.count ?? 0) + 1 }),
});

/** While catching up the projector holds documents across batches and commits them together. */
describe('Projector write-behind', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let events: SqliteEventStore;
  let inner: SqliteReadStore;
  let commits: number;
  let readStore: ReadStorePort;
  let projector: Projector;
  const logger = { info: () => undefined, error: () => undefined };

  beforeEach(() => {
    dir = makeTempDir();
    events = new SqliteEventStore(openSqlite(join(dir.path, 'e.sqlite')), { pollIntervalMs: 10, now: () => new Date() });
    inner = new SqliteReadStore(openSqlite(join(dir.path, 'r.sqlite')));
    commits = 0;
    readStore = Object.create(inner);
    readStore.commit = async (batch) => {
      commits++;
      await inner.commit(batch);
    };
  });
  afterEach(async () => {
    await projector?.stop();
    dir.remove();
  });

  const append = async (key: string, n: number) => {
    for (let i = 0; i < n; i++) {
      await events.appendToStream(`tally-${key}`, [{ id: randomUUID(), type: 'Counted', data: { key }, metadata: { schemaVersion: 1 } }], { expectedRevision: 'any' });
    }
  };

  it('replays many full batches in one commit, and the documents are complete when waitFor resolves', async () => {
    await append('a', 45);
    await append('b', 10);
    projector = new Projector(events, readStore, [tally], logger, { waitTimeoutMs: 5000, batchSize: 10 });
    await projector.start();
    await projector.catchUp(5000);
    expect(await inner.get('tally', 'a')).toEqual({ count: 45 });
    expect(await inner.get('tally', 'b')).toEqual({ count: 10 });
    // 55 events in batches of 10: five full batches held back, the partial sixth commits all.
    expect(commits).toBe(1);
    expect(await inner.getCheckpoint('tally')).toBe(await events.headPosition());
  });

  it('commits a full batch followed by silence without waiting for more events', async () => {
    projector = new Projector(events, readStore, [tally], logger, { waitTimeoutMs: 5000, batchSize: 10 });
    await projector.start();
    await append('a', 10); // may arrive as one full batch
    await projector.catchUp(2000);
    expect(await inner.get('tally', 'a')).toEqual({ count: 10 });
  });

  it('commits when the events applied since the last commit reach the threshold', async () => {
    for (let k = 0; k < 30; k++) await append(`k${k}`, 1);
    projector = new Projector(events, readStore, [tally], logger, { waitTimeoutMs: 5000, batchSize: 5, writeBehindEvents: 10 });
    await projector.start();
    await projector.catchUp(5000);
    expect(await inner.count('tally')).toBe(30);
    expect(commits).toBeGreaterThanOrEqual(3);
  });

  it('applies each event once across a stop in the middle of a catch-up and a restart', async () => {
    await append('a', 40);
    projector = new Projector(events, readStore, [tally], logger, { waitTimeoutMs: 5000, batchSize: 10 });
    await projector.start();
    await new Promise((r) => setTimeout(r, 1)); // a batch or two in, documents held back
    await projector.stop();
    const restarted = new Projector(events, readStore, [tally], logger, { waitTimeoutMs: 5000, batchSize: 10 });
    await restarted.start();
    await restarted.catchUp(5000);
    expect(await inner.get('tally', 'a')).toEqual({ count: 40 });
    await restarted.stop();
  });

  it('tells the read store once that the replay caught up: at the head of the log, or in silence after a full batch', async () => {
    let told = 0;
    readStore.caughtUp = async () => {
      told++;
    };
    await append('a', 20); // two full batches, then nothing
    projector = new Projector(events, readStore, [tally], logger, { waitTimeoutMs: 5000, batchSize: 10 });
    await projector.start();
    await projector.waitFor(await events.headPosition(), 5000);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the idle flush after the last full batch
    expect(told).toBe(1);
    await append('a', 3); // a live batch
    await projector.catchUp(5000);
    expect(told).toBe(1);
    expect(await inner.get('tally', 'a')).toEqual({ count: 23 });
  });

  it('tells the read store the replay caught up when catchUp() finds an empty log', async () => {
    let told = 0;
    readStore.caughtUp = async () => {
      told++;
    };
    projector = new Projector(events, readStore, [tally], logger, { waitTimeoutMs: 5000, batchSize: 10 });
    await projector.start();
    await projector.catchUp(5000);
    expect(told).toBe(1);
  });
});
