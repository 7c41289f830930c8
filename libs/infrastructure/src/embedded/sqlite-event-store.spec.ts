import { StreamRevisionConflictError } from '@app/application';
import { openSqlite } from './sqlite';
import { SqliteEventStore } from './sqlite-event-store';

/**
 * What the single-statement append relies on beyond the port's contract suite: the revision check
 * inside the INSERT refuses gaps, a stream that moved on, and reused event ids, and a refused
 * append writes nothing.
 */
describe('SqliteEventStore appends', () => {
  const event = (id: string, type = 'Happened') => ({ id, type, data: { id }, metadata: { schemaVersion: 1 } });
  let store: SqliteEventStore;
  let db: ReturnType<typeof openSqlite>;
  const count = () => (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;

  beforeEach(() => {
    db = openSqlite(':memory:');
    store = new SqliteEventStore(db);
  });
  afterEach(async () => {
    await store.close();
    db.close();
  });

  it('refuses an exact revision beyond the stream (no gap is ever written)', async () => {
    await store.appendToStream('s', [event('a')], { expectedRevision: 'no_stream' });
    const error = await store.appendToStream('s', [event('b')], { expectedRevision: 4n }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamRevisionConflictError);
    expect(error).toMatchObject({ actual: 0n });
    await expect(store.appendToStream('s', [event('c'), event('d')], { expectedRevision: 2n })).rejects.toBeInstanceOf(StreamRevisionConflictError);
    expect(count()).toBe(1);
  });

  it('refuses an exact revision behind the stream, reporting where the stream is', async () => {
    await store.appendToStream('s', [event('a'), event('b'), event('c')], { expectedRevision: 'no_stream' });
    const error = await store.appendToStream('s', [event('d')], { expectedRevision: 0n }).catch((e: unknown) => e);
    expect(error).toMatchObject({ actual: 2n });
    expect(count()).toBe(3);
  });

  it('refuses an exact revision on a missing stream as no_stream', async () => {
    const error = await store.appendToStream('missing', [event('a')], { expectedRevision: 0n }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamRevisionConflictError);
    expect(error).toMatchObject({ actual: 'no_stream' });
  });

  it('answers a retried single-event append at an exact revision as the original', async () => {
    await store.appendToStream('s', [event('a')], { expectedRevision: 'no_stream' });
    const first = await store.appendToStream('s', [event('b')], { expectedRevision: 0n });
    const retry = await store.appendToStream('s', [event('b')], { expectedRevision: 0n });
    expect(retry).toEqual(first);
    expect(count()).toBe(2);
  });

  it('refuses an event id already stored in another stream, writing nothing', async () => {
    await store.appendToStream('one', [event('a')], { expectedRevision: 'no_stream' });
    await expect(store.appendToStream('two', [event('a')], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(StreamRevisionConflictError);
    // The driver's error, as before (matched on its code: its class belongs to the realm that loaded the addon first).
    await expect(store.appendToStream('two', [event('x'), event('a')], { expectedRevision: 'any' })).rejects.toHaveProperty('code', 'SQLITE_CONSTRAINT_UNIQUE');
    expect((await store.readStream('two')).revision).toBe('no_stream');
  });

  it('gives increasing positions and reads a stream back with its revision', async () => {
    const a = await store.appendToStream('s', [event('a')], { expectedRevision: 'no_stream' });
    const b = await store.appendToStream('t', [event('b')], { expectedRevision: 'no_stream' });
    const c = await store.appendToStream('s', [event('c')], { expectedRevision: 0n });
    expect(a.position < b.position && b.position < c.position).toBe(true);
    const read = await store.readStream('s');
    expect(read.revision).toBe(1n);
    expect(read.events.map((e) => e.id)).toEqual(['a', 'c']);
    expect((await store.readStream('s', { fromRevision: 1n })).revision).toBe(1n);
    expect((await store.readStream('s', { maxCount: 1 })).revision).toBe(1n);
  });
});
