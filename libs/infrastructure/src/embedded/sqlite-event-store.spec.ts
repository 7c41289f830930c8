import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * Group commit (issue #23): appends made in one turn of the event loop are written in one
 * transaction, each answered after it commits; one refused append rolls back only itself; a
 * transaction that fails as a whole fails every append of the group, none of them written.
 */
describe('SqliteEventStore group commit', () => {
  const event = (id: string, type = 'Happened') => ({ id, type, data: { id }, metadata: { schemaVersion: 1 } });
  let dir: string;
  let db: ReturnType<typeof openSqlite>;
  let store: SqliteEventStore;
  const count = () => (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    db = openSqlite(join(dir, 'events.sqlite'));
    store = new SqliteEventStore(db);
  });
  afterEach(async () => {
    await store.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the appends of one turn in one transaction, in call order, refusing only the conflicting one', async () => {
    await store.appendToStream('s', [event('a')], { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled([
      store.appendToStream('s', [event('b')], { expectedRevision: 0n }),
      store.appendToStream('s', [event('c')], { expectedRevision: 0n }), // the same revision again: a conflict
      store.appendToStream('t', [event('d'), event('e')], { expectedRevision: 'no_stream' }),
      store.appendToStream('s', [event('f'), event('g')], { expectedRevision: 1n }),
      store.appendToStream('s', [event('b')], { expectedRevision: 0n }), // a retry of the first: answered as it
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(StreamRevisionConflictError);
    expect((outcomes[4] as PromiseFulfilledResult<unknown>).value).toEqual((outcomes[0] as PromiseFulfilledResult<unknown>).value);
    expect((await store.readStream('s')).events.map((e) => e.id)).toEqual(['a', 'b', 'f', 'g']);
    expect((await store.readAll({ maxCount: 10 })).map((e) => e.id)).toEqual(['a', 'b', 'd', 'e', 'f', 'g']);
    // Another connection saw one commit for the five appends.
    const other = openSqlite(join(dir, 'events.sqlite'));
    try {
      const before = (other.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
      await Promise.all([store.appendToStream('u', [event('h')], { expectedRevision: 'no_stream' }), store.appendToStream('v', [event('i')], { expectedRevision: 'no_stream' })]);
      expect((other.prepare('PRAGMA data_version').get() as { data_version: number }).data_version).toBe(before + 1);
    } finally {
      other.close();
    }
  });

  it('rolls a refused append of several events back alone', async () => {
    await store.appendToStream('s', [event('a')], { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled([
      store.appendToStream('t', [event('x'), event('a')], { expectedRevision: 'no_stream' }), // its second id is taken
      store.appendToStream('u', [event('y'), event('z')], { expectedRevision: 'no_stream' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
    expect((await store.readStream('t')).revision).toBe('no_stream');
    expect((await store.readStream('u')).events.map((e) => e.id)).toEqual(['y', 'z']);
    expect(count()).toBe(3);
  });

  it('fails every append of a group whose transaction cannot begin, writing none of them', async () => {
    await store.appendToStream('s', [event('a')], { expectedRevision: 'no_stream' });
    db.pragma('busy_timeout = 0');
    const locker = openSqlite(join(dir, 'events.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    try {
      const outcomes = await Promise.allSettled([
        store.appendToStream('s', [event('b')], { expectedRevision: 0n }),
        store.appendToStream('t', [event('c')], { expectedRevision: 'no_stream' }),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
      expect((outcomes[0] as PromiseRejectedResult).reason).toHaveProperty('code', 'SQLITE_BUSY');
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    expect(count()).toBe(1);
    // The store goes on.
    await store.appendToStream('s', [event('b')], { expectedRevision: 0n });
    expect(count()).toBe(2);
  });

  it('writes appends still queued when it closes', async () => {
    const queued = store.appendToStream('s', [event('a')], { expectedRevision: 'no_stream' });
    await store.close();
    await expect(queued).resolves.toMatchObject({ nextExpectedRevision: 0n });
    expect(count()).toBe(1);
  });
});

/**
 * Live subscriptions read this process's own commits from memory (issue #23): what they deliver
 * must be exactly what the log holds, in order, with another process's appends in between read
 * from the table, and nothing of a refused append.
 */
describe('SqliteEventStore live subscriptions', () => {
  const event = (id: string) => ({ id, type: 'Happened', data: { id, list: [1, 2], nested: { at: null } }, metadata: { schemaVersion: 1, causationId: `c-${id}` } });
  let dir: string;
  let db: ReturnType<typeof openSqlite>;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'live-subscription-'));
    db = openSqlite(join(dir, 'events.sqlite'));
    store = new SqliteEventStore(db, { pollIntervalMs: 10, now: () => new Date() });
  });
  afterEach(async () => {
    await store.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers exactly the stored log, reading only what another process appended', async () => {
    await store.appendToStream('before', [event('a')], { expectedRevision: 'no_stream' });
    const received: Awaited<ReturnType<SqliteEventStore['readAll']>> = [];
    const tableReads: number[] = [];
    const readAll = store.readAll.bind(store);
    jest.spyOn(store, 'readAll').mockImplementation(async (options) => {
      const rows = await readAll(options);
      if (rows.length > 0) tableReads.push(...rows.map((e) => Number(e.position)));
      return rows;
    });
    const subscription = store.subscribeToAll({ after: (await store.headPosition())! }, async (batch) => void received.push(...batch));
    const until = async (n: number) => {
      for (let i = 0; i < 200 && received.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    };

    await Promise.allSettled([
      store.appendToStream('s', [event('b'), event('c')], { expectedRevision: 'no_stream' }),
      store.appendToStream('t', [event('x'), event('a')], { expectedRevision: 'no_stream' }), // refused: "a" is taken
      store.appendToStream('u', [event('d')], { expectedRevision: 'no_stream' }),
    ]);
    await until(3);
    // Another process appends; then this one again, after the gap.
    const otherDb = openSqlite(join(dir, 'events.sqlite'));
    const other = new SqliteEventStore(otherDb);
    await other.appendToStream('foreign', [event('f')], { expectedRevision: 'no_stream' });
    await other.close();
    otherDb.close();
    await store.appendToStream('s', [event('g')], { expectedRevision: 1n });
    await until(5);
    await subscription.close();

    const stored = await readAll({ after: 1n, maxCount: 100 });
    expect(received.map((e) => e.id)).toEqual(['b', 'c', 'd', 'f', 'g']);
    expect(received).toEqual(stored);
    // The table was read for the foreign event only (and for this process's own after it, when
    // the subscription woke on the other process's commit before this one's landed).
    expect(tableReads).toContain(Number(stored[3].position));
    expect(tableReads.filter((p) => p < Number(stored[3].position))).toEqual([]);
  });

  it('parses each of its own events once for every subscription, and frozen with freezeDelivered a subscriber cannot change them', async () => {
    await store.close();
    store = new SqliteEventStore(db, { pollIntervalMs: 10, now: () => new Date(), freezeDelivered: true });
    const first: Awaited<ReturnType<SqliteEventStore['readAll']>> = [];
    const second: typeof first = [];
    const refused: unknown[] = [];
    const one = store.subscribeToAll({}, async (batch) => void first.push(...batch));
    const two = store.subscribeToAll({}, async (batch) => {
      second.push(...batch);
      for (const e of batch) {
        try {
          (e.data as { list: number[] }).list.push(3);
        } catch (error) {
          refused.push(error);
        }
      }
    });
    await new Promise((r) => setTimeout(r, 20));
    const parse = jest.spyOn(JSON, 'parse');
    await store.appendToStream('s', [event('a'), event('b')], { expectedRevision: 'no_stream' });
    for (let i = 0; i < 200 && (first.length < 2 || second.length < 2); i++) await new Promise((r) => setTimeout(r, 5));
    const parses = parse.mock.calls.length;
    parse.mockRestore();
    await one.close();
    await two.close();
    expect(first.map((e) => e.id)).toEqual(['a', 'b']);
    // The same objects (data and metadata parsed once per event, not once per subscription), as stored.
    expect(second).toHaveLength(2);
    second.forEach((e, i) => expect(e).toBe(first[i]));
    expect(parses).toBe(4);
    expect(first).toEqual(await store.readAll({ maxCount: 10 }));
    expect(Object.isFrozen(first[0].data)).toBe(true);
    expect(refused).toHaveLength(2);
    expect(refused[0]).toBeInstanceOf(TypeError);
  });

  it('with commits of other processes reported, queries only when one is reported or the poll comes', async () => {
    const listeners = new Set<() => void>();
    const changes = { onChange: (listener: () => void) => (listeners.add(listener), () => void listeners.delete(listener)) };
    await store.close();
    // A poll far away: only this process's appends and the reported commits wake the subscription.
    store = new SqliteEventStore(db, { pollIntervalMs: 60_000, now: () => new Date(), changes });
    const queries: number[] = [];
    const readAll = store.readAll.bind(store);
    jest.spyOn(store, 'readAll').mockImplementation(async (options) => {
      queries.push(Number(options.after ?? 0n));
      return readAll(options);
    });
    const received: string[] = [];
    const subscription = store.subscribeToAll({}, async (batch) => void received.push(...batch.map((e) => e.id)));
    const until = async (n: number) => {
      for (let i = 0; i < 200 && received.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    };
    await until(0);
    await new Promise((r) => setTimeout(r, 20));
    const queriesAtStart = queries.length; // the catch-up's read of the (empty) table

    await store.appendToStream('s', [event('a')], { expectedRevision: 'no_stream' });
    await store.appendToStream('s', [event('b')], { expectedRevision: 0n });
    await until(2);
    expect(received).toEqual(['a', 'b']);
    expect(queries.length).toBe(queriesAtStart);

    // Another process commits and the watcher says so: read from the table at once.
    const otherDb = openSqlite(join(dir, 'events.sqlite'));
    const other = new SqliteEventStore(otherDb);
    await other.appendToStream('foreign', [event('f')], { expectedRevision: 'no_stream' });
    await other.close();
    otherDb.close();
    for (const listener of listeners) listener();
    await until(3);
    expect(received).toEqual(['a', 'b', 'f']);
    expect(queries.length).toBeGreaterThan(queriesAtStart);
    // And this process's next commit, after the gap, is delivered too.
    await store.appendToStream('s', [event('c')], { expectedRevision: 1n });
    await until(4);
    expect(received).toEqual(['a', 'b', 'f', 'c']);
    await subscription.close();
  });
});
