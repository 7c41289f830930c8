import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import {
  ContentKeyMissingError,
  ContentKeys,
  type GlobalPosition,
  ProjectionTimeoutError,
  ProtectingEventStore,
  type ReadStoreBatch,
  type ReadStorePort,
  type RecordedEvent,
} from '@app/application';
import { openSqlite, SqliteEventStore, SqliteReadStore } from '@app/infrastructure';
import { openContentKeyDatabase, SqliteContentKeyStore } from '@app/infrastructure/embedded/sqlite-content-key-store';
import { makeTempDir } from '@app/testing';
import { defineProjection, type Projection } from './projection';
import { Projector, type ProjectorLogger } from './projector';

// ---------------------------------------------------------------------------------------------
// Test projections: one document per stream, recording every value it applied, in order.
// `calls` counts evolve calls, so a re-applied event is visible even when the result looks the same.
// ---------------------------------------------------------------------------------------------
type TallyDoc = { stream: string; count: number; values: number[]; positions: string[] };
type Calls = { n: number };

function tallyProjection(name: string, options: { calls?: Calls; throwWhile?: { on: boolean } } = {}): Projection<TallyDoc> {
  return defineProjection<TallyDoc>({
    name,
    collection: { name: `${name}_docs`, fields: [{ name: 'stream', type: 'string' }, { name: 'count', type: 'number' }] },
    handles: ['Tick', 'Reset'],
    idsOf: (event) => [event.streamId],
    evolve: (doc, event: RecordedEvent<string, { n: number }>, id) => {
      if (options.calls) options.calls.n++;
      if (options.throwWhile?.on) throw new Error(`${name} cannot apply ${event.type} yet`);
      if (event.type === 'Reset') return null;
      return {
        stream: id,
        count: (doc?.count ?? 0) + 1,
        values: [...(doc?.values ?? []), event.data.n],
        positions: [...(doc?.positions ?? []), event.position.toString()],
      };
    },
  });
}

/** Collects what the projector logs, to assert that failures are reported. */
class RecordingLogger implements ProjectorLogger {
  readonly entries: { level: 'info' | 'error' | 'fatal'; msg: string; obj: Record<string, unknown> }[] = [];
  fatal(obj: object, msg: string) {
    this.entries.push({ level: 'fatal', msg, obj: obj as Record<string, unknown> });
  }
  info(obj: object, msg: string) {
    this.entries.push({ level: 'info', msg, obj: obj as Record<string, unknown> });
  }
  error(obj: object, msg: string) {
    this.entries.push({ level: 'error', msg, obj: obj as Record<string, unknown> });
  }
  errors() {
    return this.entries.filter((e) => e.level === 'error');
  }
}

/** A read store whose commits can be held back and whose checkpoint reads can fail, delegating the rest. */
class ControllableReadStore implements ReadStorePort {
  gate: Promise<void> | undefined;
  /** The store is down: checkpoints, loads and commits fail. */
  checkpointOutage = false;
  constructor(private readonly inner: ReadStorePort) {}
  ensureCollection: ReadStorePort['ensureCollection'] = (spec) => this.inner.ensureCollection(spec);
  get: ReadStorePort['get'] = (c, id) => this.inner.get(c, id);
  getMany: ReadStorePort['getMany'] = async (c, ids) => {
    if (this.checkpointOutage) throw new Error('read store unavailable');
    return this.inner.getMany(c, ids);
  };
  find: ReadStorePort['find'] = (c, o) => this.inner.find(c, o);
  count: ReadStorePort['count'] = (c, w) => this.inner.count(c, w);
  async commit(batch: ReadStoreBatch) {
    if (this.gate) await this.gate;
    if (this.checkpointOutage) throw new Error('read store unavailable');
    return this.inner.commit(batch);
  }
  getCheckpoint: ReadStorePort['getCheckpoint'] = (name) => this.inner.getCheckpoint(name);
  async getCheckpoints() {
    if (this.checkpointOutage) throw new Error('read store unavailable');
    return this.inner.getCheckpoints();
  }
  dropCollection: ReadStorePort['dropCollection'] = (c) => this.inner.dropCollection(c);
  deleteCheckpoint: ReadStorePort['deleteCheckpoint'] = (n) => this.inner.deleteCheckpoint(n);
  health: ReadStorePort['health'] = () => this.inner.health();
  close: ReadStorePort['close'] = () => this.inner.close();
}

async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const isSettled = async (promise: Promise<unknown>, withinMs = 30): Promise<boolean> =>
  Promise.race([promise.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), withinMs))]);

describe('Projector (embedded SQLite event store and read store)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let eventsDb: Database.Database;
  let readDb: Database.Database;
  let events: SqliteEventStore;
  let readStore: SqliteReadStore;
  let logger: RecordingLogger;
  const projectors: Projector[] = [];

  const newProjector = (projections: Projection[], options: Partial<{ waitTimeoutMs: number; batchSize: number; store: ReadStorePort }> = {}) => {
    const projector = new Projector(events, options.store ?? readStore, projections, logger, {
      waitTimeoutMs: options.waitTimeoutMs ?? 3000,
      batchSize: options.batchSize ?? 100,
      retryDelayMs: 10,
    });
    projectors.push(projector);
    return projector;
  };

  /** Appends Tick events with the given values to a stream at its current revision. */
  const append = async (stream: string, values: number[], type = 'Tick'): Promise<GlobalPosition> => {
    const { revision } = await events.readStream(stream);
    const { position } = await events.appendToStream(
      stream,
      values.map((n) => ({ id: randomUUID(), type, data: { n }, metadata: { schemaVersion: 1 } })),
      { expectedRevision: revision },
    );
    return position;
  };

  const doc = (projection: string, stream: string) => readStore.get<TallyDoc>(`${projection}_docs`, stream);

  beforeEach(() => {
    dir = makeTempDir('projector-spec-');
    eventsDb = openSqlite(join(dir.path, 'events.sqlite'));
    readDb = openSqlite(join(dir.path, 'read-models.sqlite'));
    events = new SqliteEventStore(eventsDb, { pollIntervalMs: 20, now: () => new Date() });
    readStore = new SqliteReadStore(readDb);
    logger = new RecordingLogger();
  });

  afterEach(async () => {
    for (const projector of projectors.splice(0)) await projector.stop();
    await events.close();
    eventsDb.close();
    readDb.close();
    dir.remove();
  });

  it('applies the log in order, per document, across batches', async () => {
    await append('tally-a', [1, 2]);
    await append('tally-b', [10]);
    await append('tally-a', [3]);
    await append('tally-b', [20, 30]);
    const projector = newProjector([tallyProjection('tally')], { batchSize: 2 });
    await projector.start();
    await projector.catchUp(3000);

    const a = await doc('tally', 'tally-a');
    const b = await doc('tally', 'tally-b');
    expect(a).toMatchObject({ stream: 'tally-a', count: 3, values: [1, 2, 3] });
    expect(b).toMatchObject({ stream: 'tally-b', count: 3, values: [10, 20, 30] });
    const positions = [...a!.positions, ...b!.positions].map(BigInt).sort((x, y) => (x < y ? -1 : 1));
    expect(positions).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
  });

  it('prepares an event once and hands the result to the evolve of each document it touches', async () => {
    // One Split event touches the documents `part-0` … `part-<n-1>`; each takes its share from the prepared list.
    type Split = { type: 'Split'; data: { n: number } };
    const prepared: number[] = [];
    const split = defineProjection<{ share: number }, Split, number[]>({
      name: 'split',
      collection: { name: 'split_docs', fields: [] },
      handles: ['Split'],
      idsOf: (e) => Array.from({ length: e.data.n }, (_, i) => `part-${i}`),
      prepare: (e) => {
        prepared.push(e.data.n);
        return Array.from({ length: e.data.n }, (_, i) => (i + 1) * 10);
      },
      evolve: (_doc, _e, id, shares) => ({ share: shares[Number(id.split('-')[1])] }),
    });
    await append('split-1', [3], 'Split');
    await append('split-2', [2], 'Split');
    const projector = newProjector([split]);
    await projector.start();
    await projector.catchUp(3000);

    expect(prepared).toEqual([3, 2]);
    const docs = await readStore.getMany<{ share: number }>('split_docs', ['part-0', 'part-1', 'part-2']);
    // The second event rewrote part-0 and part-1 with its own shares; part-2 kept the first's.
    expect(Object.fromEntries(docs.map((d) => [d.id, d.doc.share]))).toEqual({ 'part-0': 10, 'part-1': 20, 'part-2': 30 });
  });

  it('follows an event to the documents another document names (followIds), committed or still held, and reports erasing commits', async () => {
    // `Link` (n) makes `index` name the document `item-<n>`; `Drop` follows the index to every named item and deletes them.
    type Ev = { type: 'Link' | 'Drop'; data: { n: number } };
    const linked = defineProjection<{ items?: string[]; n?: number }, Ev>({
      name: 'linked',
      collection: { name: 'linked_docs', fields: [] },
      handles: ['Link', 'Drop'],
      idsOf: (e) => (e.type === 'Link' ? ['index', `item-${e.data.n}`] : ['index']),
      followIds: (e, docOf) => (e.type === 'Drop' ? (docOf('index')?.items ?? []) : []),
      evolve: (doc, e, id) => {
        if (e.type === 'Drop') return null;
        return id === 'index' ? { items: [...(doc?.items ?? []), `item-${e.data.n}`] } : { n: e.data.n };
      },
    });
    const committed: string[] = [];
    await append('links-1', [1, 2], 'Link');
    const projector = new Projector(events, readStore, [linked], logger, {
      waitTimeoutMs: 2000, batchSize: 100, retryDelayMs: 10,
      erasures: { types: ['Drop'], committed: () => committed.push('erased') },
    });
    projectors.push(projector);
    await projector.start();
    await projector.catchUp(3000);
    expect((await readStore.getMany('linked_docs', ['index', 'item-1', 'item-2', 'item-3'])).map((d) => d.id).sort()).toEqual(['index', 'item-1', 'item-2']);
    expect(committed).toEqual([]);
    // A link and the drop in one batch: item-3 is still held when the drop follows the index to it.
    const { revision } = await events.readStream('links-1');
    const { position } = await events.appendToStream('links-1', [
      { id: randomUUID(), type: 'Link', data: { n: 3 }, metadata: { schemaVersion: 1 } },
      { id: randomUUID(), type: 'Drop', data: { n: 0 }, metadata: { schemaVersion: 1 } },
    ], { expectedRevision: revision });
    await projector.waitFor(position);
    expect(await readStore.getMany('linked_docs', ['index', 'item-1', 'item-2', 'item-3'])).toEqual([]);
    expect(committed).toEqual(['erased']);
  });

  it('stores the checkpoint with the documents and advances it with every batch, including events no projection reads', async () => {
    const first = await append('tally-a', [1]);
    const projector = newProjector([tallyProjection('tally')]);
    await projector.start();
    await projector.catchUp(3000);
    expect(await readStore.getCheckpoint('tally')).toBe(first);
    expect(projector.position).toBe(first);

    const unrelated = await append('other-1', [0], 'SomethingElse');
    await projector.waitFor(unrelated);
    expect(await readStore.getCheckpoint('tally')).toBe(unrelated);
    expect(projector.position).toBe(unrelated);
    expect(await doc('tally', 'other-1')).toBeNull();
  });

  it('waitFor(position) resolves only once the projection reflects the append', async () => {
    const gated = new ControllableReadStore(readStore);
    const projector = newProjector([tallyProjection('tally')], { store: gated });
    await projector.start();

    let open!: () => void;
    gated.gate = new Promise<void>((resolve) => (open = resolve));
    const position = await append('tally-a', [42]);
    const waiting = projector.waitFor(position);

    expect(await isSettled(waiting, 100)).toBe(false); // the commit is held back
    expect(await doc('tally', 'tally-a')).toBeNull();
    open();
    await waiting;
    expect(await doc('tally', 'tally-a')).toMatchObject({ count: 1, values: [42] });
  });

  it('waitFor resolves at once for undefined (nothing appended) and for positions already applied', async () => {
    const position = await append('tally-a', [1]);
    const projector = newProjector([tallyProjection('tally')], { waitTimeoutMs: 1 });
    await projector.start();
    await projector.catchUp(3000);
    await expect(projector.waitFor(undefined)).resolves.toBeUndefined();
    await expect(projector.waitFor(position)).resolves.toBeUndefined();
    await expect(projector.waitFor(position - 1n)).resolves.toBeUndefined();
  });

  it('waitFor times out with ProjectionTimeoutError (503, REQUEST_TIMEOUT) when no event arrives', async () => {
    const head = await append('tally-a', [1]);
    const projector = newProjector([tallyProjection('tally')], { waitTimeoutMs: 50 });
    await projector.start();
    await projector.catchUp(3000);

    const started = Date.now();
    const error = await projector.waitFor(head + 1n).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(error).toBeInstanceOf(ProjectionTimeoutError);
    expect(error).toMatchObject({ code: 'REQUEST_TIMEOUT', httpStatus: 503, extra: { position: (head + 1n).toString() } });
    expect((error as Error).message).toContain('50 ms');

    // The timed-out waiter is gone: a later append is applied and waited for normally.
    const next = await append('tally-a', [2]);
    await projector.waitFor(next, 3000);
    expect(await doc('tally', 'tally-a')).toMatchObject({ count: 2 });
  });

  it('after a restart, continues from the stored checkpoint without re-applying anything', async () => {
    const calls = { n: 0 };
    await append('tally-a', [1, 2, 3]);
    await append('tally-b', [4]);
    const first = newProjector([tallyProjection('tally', { calls })]);
    await first.start();
    await first.catchUp(3000);
    await first.stop();
    expect(calls.n).toBe(4);

    const second = newProjector([tallyProjection('tally', { calls })]);
    await second.start();
    await second.catchUp(3000);
    expect(calls.n).toBe(4);
    expect(second.position).toBe(await events.headPosition());

    const next = await append('tally-a', [5]);
    await second.waitFor(next);
    expect(calls.n).toBe(5);
    expect(await doc('tally', 'tally-a')).toMatchObject({ count: 4, values: [1, 2, 3, 5] });
    expect(await doc('tally', 'tally-b')).toMatchObject({ count: 1, values: [4] });
  });

  it('does not double-apply redelivered events: the document position guard skips them when the checkpoint is lost', async () => {
    const calls = { n: 0 };
    await append('tally-a', [1, 2]);
    await append('tally-b', [3]);
    const first = newProjector([tallyProjection('tally', { calls })], { batchSize: 2 });
    await first.start();
    await first.catchUp(3000);
    await first.stop();
    const before = { a: await doc('tally', 'tally-a'), b: await doc('tally', 'tally-b') };

    // A second projector on the same store that has lost the checkpoint: the whole log is redelivered.
    await readStore.deleteCheckpoint('tally');
    const second = newProjector([tallyProjection('tally', { calls })], { batchSize: 2 });
    await second.start();
    await second.catchUp(3000);

    expect(calls.n).toBe(3); // no evolve call for any redelivered event
    expect({ a: await doc('tally', 'tally-a'), b: await doc('tally', 'tally-b') }).toEqual(before);
    expect(await readStore.getCheckpoint('tally')).toBe(await events.headPosition());

    // New events still reach the documents exactly once.
    const next = await append('tally-a', [4]);
    await second.waitFor(next);
    expect(await doc('tally', 'tally-a')).toMatchObject({ count: 3, values: [1, 2, 4] });
    expect(calls.n).toBe(4);
  });

  // Both instances see each append as one batch (the test waits for both after every append): the
  // interleaving where one instance runs a batch behind is the stale-overwrite test below.
  it('two projector instances running at once on one store (the server and the CLI) apply each append once', async () => {
    const server = newProjector([tallyProjection('tally')]);
    const cli = newProjector([tallyProjection('tally')]);
    await server.start();
    await cli.start();
    const expected: Record<string, number[]> = { 'tally-a': [], 'tally-b': [], 'tally-c': [] };
    let last = 0n;
    for (let i = 0; i < 30; i++) {
      const stream = ['tally-a', 'tally-b', 'tally-c'][i % 3];
      const values = i % 4 === 0 ? [i, i + 1000] : [i];
      expected[stream].push(...values);
      last = await append(stream, values);
      await Promise.all([server.waitFor(last), cli.waitFor(last)]);
    }
    for (const [stream, values] of Object.entries(expected)) {
      expect(await doc('tally', stream)).toMatchObject({ count: values.length, values });
    }
    expect(await readStore.getCheckpoint('tally')).toBe(last);
  });

  it('a deleted document stays deleted when its history is redelivered', async () => {
    await append('tally-a', [1, 2]);
    await append('tally-a', [0], 'Reset');
    await append('tally-a', [7]);
    const projector = newProjector([tallyProjection('tally')], { batchSize: 1 });
    await projector.start();
    await projector.catchUp(3000);
    expect(await doc('tally', 'tally-a')).toMatchObject({ count: 1, values: [7] });

    await readStore.deleteCheckpoint('tally');
    const again = newProjector([tallyProjection('tally')], { batchSize: 1 });
    await again.start();
    await again.catchUp(3000);
    expect(await doc('tally', 'tally-a')).toMatchObject({ count: 1, values: [7] });
  });

  it('retries a batch whose projection throws, logs the failure, commits nothing meanwhile, and recovers', async () => {
    const throwWhile = { on: true };
    const steadyCalls = { n: 0 };
    const projector = newProjector([tallyProjection('steady', { calls: steadyCalls }), tallyProjection('flaky', { throwWhile })]);
    await projector.start();

    const position = await append('tally-a', [1]);
    const waiting = projector.waitFor(position, 5000);
    await eventually(() => logger.errors().length >= 3, 'three failed attempts');

    expect(logger.errors()[0].msg).toMatch(/^projector could not apply a batch; retrying in \d+ ms$/);
    expect((logger.errors()[0].obj.err as Error).message).toBe('flaky cannot apply Tick yet');
    // The batch is one atomic commit: the healthy projection did not get ahead on its own.
    expect(await doc('steady', 'tally-a')).toBeNull();
    expect(await readStore.getCheckpoint('steady')).toBeUndefined();
    expect(await isSettled(waiting)).toBe(false);

    throwWhile.on = false;
    await waiting;
    expect(await doc('flaky', 'tally-a')).toMatchObject({ count: 1, values: [1] });
    expect(await doc('steady', 'tally-a')).toMatchObject({ count: 1, values: [1] });
    expect(steadyCalls.n).toBeGreaterThan(1); // it was evaluated on every attempt, committed once
    expect(await readStore.getCheckpoints()).toEqual({ steady: position, flaky: position });

    const errorsBefore = logger.errors().length;
    const next = await append('tally-a', [2]);
    await projector.waitFor(next);
    expect(logger.errors()).toHaveLength(errorsBefore);
    expect(await doc('flaky', 'tally-a')).toMatchObject({ count: 2, values: [1, 2] });
  });

  it('keeps retrying through a read-store outage that outlasts one retry', async () => {
    const flaky = new ControllableReadStore(readStore);
    const projector = newProjector([tallyProjection('tally')], { store: flaky });
    await projector.start();

    flaky.checkpointOutage = true;
    const position = await append('tally-a', [1]);
    await eventually(() => logger.errors().length >= 2, 'the failed batch and the failed re-subscription');
    await new Promise((r) => setTimeout(r, 50)); // several retry periods
    flaky.checkpointOutage = false;

    await projector.waitFor(position, 1000);
    expect(await doc('tally', 'tally-a')).toMatchObject({ count: 1 });
  });

  it('backs off a batch that keeps failing: the delay doubles up to a cap, each failure logged with the batch; reset once it commits', async () => {
    const throwWhile = { on: true };
    const projector = new Projector(events, readStore, [tallyProjection('flaky', { throwWhile })], logger, { waitTimeoutMs: 5000, batchSize: 100, retryDelayMs: 5, maxRetryDelayMs: 40 });
    projectors.push(projector);
    await projector.start();
    const position = await append('tally-a', [1]);
    await eventually(() => logger.errors().length >= 6, 'six failed attempts');
    const failures = logger.errors().slice(0, 6).map((e) => e.obj);
    expect(failures.map((f) => f.retryInMs)).toEqual([5, 10, 20, 40, 40, 40]);
    expect(failures.map((f) => f.consecutiveFailures)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(failures[0].batch).toMatchObject({ from: position.toString(), to: position.toString(), events: 1, firstEvent: { type: 'Tick', stream: 'tally-a' } });
    expect(logger.errors()[5].msg).toMatch(/failed 6 times in a row/);

    throwWhile.on = false;
    await projector.waitFor(position);
    expect(logger.entries.some((e) => e.level === 'info' && /applied the batch that failed/.test(e.msg))).toBe(true);
    // Reset: the next failure starts again from the base delay.
    throwWhile.on = true;
    const errorsBefore = logger.errors().length;
    await append('tally-a', [2]);
    await eventually(() => logger.errors().length > errorsBefore, 'the next failure');
    expect(logger.errors()[errorsBefore].obj).toMatchObject({ retryInMs: 5, consecutiveFailures: 1 });
    throwWhile.on = false;
  });

  it('a batch too large for the store’s transaction gets through: batches are halved after each failure, then restored at the head', async () => {
    // A store that refuses commits of more than 5 documents (as MongoDB aborts an oversized or overlong transaction).
    const commits: number[] = [];
    const small = new (class extends ControllableReadStore {
      override async commit(batch: ReadStoreBatch) {
        const n = batch.writes.reduce((k, w) => k + w.ops.length, 0);
        if (n > 5) throw new Error(`transaction too large: ${n} documents`);
        commits.push(n);
        return readStore.commit(batch);
      }
    })(readStore);
    let last = 0n;
    for (let i = 0; i < 40; i++) last = await append(`tally-${i}`, [i]);
    const projector = new Projector(events, small, [tallyProjection('tally')], logger, { waitTimeoutMs: 10_000, batchSize: 100, retryDelayMs: 1, maxRetryDelayMs: 5 });
    projectors.push(projector);
    await projector.start();
    await projector.waitFor(last, 10_000);
    for (let i = 0; i < 40; i++) expect(await doc('tally', `tally-${i}`)).toMatchObject({ count: 1, values: [i] });
    // 40 documents: refused, then 20, then 10, then batches of 5 commit.
    expect(logger.errors().map((e) => e.obj.nextBatchSize)).toEqual([20, 10, 5]);
    expect(Math.max(...commits)).toBeLessThanOrEqual(5);
    // At the head, full batches again (a new subscription), and the projector keeps going.
    await eventually(() => logger.entries.some((e) => /back to full batches/.test(e.msg)), 'full batches again');
    expect((projector as unknown as { batchSize: number }).batchSize).toBe(100);
    const next = await append('tally-x', [1, 2, 3]);
    await projector.waitFor(next);
    expect(await doc('tally', 'tally-x')).toMatchObject({ values: [1, 2, 3] });
  });

  it('caps batches and held-back events by the read store’s limits (MongoDB: 1,000 events)', async () => {
    const checkpointsCommitted: bigint[] = [];
    const limited = new (class extends ControllableReadStore {
      readonly limits = { maxWritesPerTransaction: 1000, maxBatchEvents: 7, maxWriteBehindEvents: 7 };
      override async commit(batch: ReadStoreBatch) {
        checkpointsCommitted.push(...batch.checkpoints.map((c) => c.position));
        return readStore.commit(batch);
      }
    })(readStore);
    let last = 0n;
    for (let i = 0; i < 5; i++) last = await append(`tally-${i}`, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const projector = new Projector(events, limited, [tallyProjection('tally')], logger, { waitTimeoutMs: 5000, batchSize: 5000, writeBehindEvents: 100_000 });
    projectors.push(projector);
    await projector.start();
    await projector.waitFor(last);
    // Every commit covers at most 7 events of the log (positions are dense here).
    const steps = checkpointsCommitted.map((p, i) => Number(p - (i === 0 ? 0n : checkpointsCommitted[i - 1])));
    expect(checkpointsCommitted[checkpointsCommitted.length - 1]).toBe(last);
    expect(Math.max(...steps)).toBeLessThanOrEqual(7);
    expect(await doc('tally', 'tally-4')).toMatchObject({ count: 10 });
  });

  it('two projectors sharing a read store never lose an event to a stale overwrite', async () => {
    let releaseCommit!: () => void;
    let releaseLoad!: () => void;
    let reachedLoad!: () => void;
    let reachedCommit = false;
    const commitGate = new Promise<void>((r) => (releaseCommit = r));
    const loadGate = new Promise<void>((r) => (releaseLoad = r));
    const slowReachedSecondLoad = new Promise<void>((r) => (reachedLoad = r));
    let loads = 0;
    let commits = 0;
    const slowStore = new (class extends ControllableReadStore {
      override getMany: ReadStorePort['getMany'] = async (c, ids) => {
        if (++loads === 2) {
          reachedLoad();
          await loadGate;
        }
        return readStore.getMany(c, ids);
      };
      override async commit(batch: ReadStoreBatch) {
        if (++commits === 1) {
          reachedCommit = true;
          await commitGate;
        }
        return readStore.commit(batch);
      }
    })(readStore);

    const p1 = await append('tally-a', [1]);
    const slow = newProjector([tallyProjection('tally')], { store: slowStore });
    await slow.start();
    await eventually(() => reachedCommit, 'the slow projector to hold its first commit');

    const fast = newProjector([tallyProjection('tally')]);
    await fast.start();
    await fast.catchUp(3000);
    await fast.waitFor(await append('tally-a', [2]));
    expect(await doc('tally', 'tally-a')).toMatchObject({ values: [1, 2] });

    releaseCommit(); // the slow projector writes its state after event 1 over the state after event 2
    // (A fixed store ignores that stale write; the slow projector then has nothing to load for event 2.)
    await Promise.race([slowReachedSecondLoad, slow.waitFor(p1 + 1n)]);
    await fast.waitFor(await append('tally-a', [3]));
    releaseLoad();
    const head = (await events.headPosition())!;
    await slow.waitFor(head);

    expect(await doc('tally', 'tally-a')).toMatchObject({ count: 3, values: [1, 2, 3] });
  });

  it('two projections with different checkpoints each apply every event exactly once', async () => {
    const aCalls = { n: 0 };
    const bCalls = { n: 0 };
    await append('tally-a', [1, 2]);
    await append('tally-b', [3]);

    // Only A runs at first.
    const onlyA = newProjector([tallyProjection('a', { calls: aCalls })]);
    await onlyA.start();
    await onlyA.catchUp(3000);
    await onlyA.stop();

    await append('tally-a', [4]);
    await append('tally-b', [5, 6]);

    // B is added (no checkpoint: replays everything) while A resumes from its checkpoint.
    const both = newProjector([tallyProjection('a', { calls: aCalls }), tallyProjection('b', { calls: bCalls })], { batchSize: 2 });
    await both.start();
    await both.catchUp(3000);
    await both.stop();
    expect(aCalls.n).toBe(6);
    expect(bCalls.n).toBe(6);

    // Now B alone gets ahead, then both run again: A catches up, B applies nothing twice.
    await append('tally-a', [7]);
    const onlyB = newProjector([tallyProjection('b', { calls: bCalls })]);
    await onlyB.start();
    await onlyB.catchUp(3000);
    await onlyB.stop();
    await append('tally-b', [8]);
    const again = newProjector([tallyProjection('a', { calls: aCalls }), tallyProjection('b', { calls: bCalls })]);
    await again.start();
    await again.catchUp(3000);

    expect(aCalls.n).toBe(8);
    expect(bCalls.n).toBe(8);
    for (const projection of ['a', 'b']) {
      expect(await doc(projection, 'tally-a')).toMatchObject({ count: 4, values: [1, 2, 4, 7] });
      expect(await doc(projection, 'tally-b')).toMatchObject({ count: 4, values: [3, 5, 6, 8] });
    }
    const head = await events.headPosition();
    expect(await readStore.getCheckpoints()).toEqual({ a: head, b: head });
  });

  describe('on a sealed log whose keys are not here (a data directory restored without its content-keys.sqlite)', () => {
    /** A log with sealed messages written through one key store, read through a fresh one (or the same keys under another key-encryption key). */
    const sealedLog = async (reader: 'empty key store' | 'other key-encryption key') => {
      const kek = randomBytes(32);
      const keysDb = openContentKeyDatabase(join(dir.path, 'written'));
      const writer = new ProtectingEventStore(events, new ContentKeys(new SqliteContentKeyStore(keysDb), kek), { vacuumingDelayDays: 30, now: () => new Date() });
      const message = (id: number) => ({ id: randomUUID(), type: 'MessageSent', metadata: { schemaVersion: 1 }, data: { realmId: 1, messageId: id, senderId: 1, recipient: { type: 'direct', participantIds: [1, 2] }, content: `text ${id}`, renderedContent: `<p>text ${id}</p>`, client: 'test', at: new Date().toISOString() } });
      await append('tally-a', [1]);
      await writer.appendToStream('message-1', [message(1)], { expectedRevision: 'no_stream' });
      const position = await append('tally-a', [2]);
      const readerDb = reader === 'empty key store' ? openContentKeyDatabase(join(dir.path, 'restored')) : keysDb;
      const read = new ProtectingEventStore(events, new ContentKeys(new SqliteContentKeyStore(readerDb), reader === 'empty key store' ? kek : randomBytes(32)), { vacuumingDelayDays: 30, now: () => new Date() });
      return { read, writer, position, close: () => { keysDb.close(); if (readerDb !== keysDb) readerDb.close(); } };
    };

    it.each(['empty key store', 'other key-encryption key'] as const)('with an %s: stops at once instead of retrying, rejects the boot’s catch-up with ContentKeyMissingError, logs it as fatal', async (reader) => {
      const { read, close } = await sealedLog(reader);
      const fatal: Error[] = [];
      const projector = new Projector(read, readStore, [tallyProjection('tally')], logger, { waitTimeoutMs: 3000, batchSize: 100, retryDelayMs: 10 });
      projectors.push(projector);
      const subscribe = jest.spyOn(read, 'subscribeToAll');
      projector.whenStoppedForGood((e) => fatal.push(e));
      await projector.start();
      const started = Date.now();
      const catchUp = projector.catchUp();
      await expect(catchUp).rejects.toBeInstanceOf(ContentKeyMissingError);
      expect(Date.now() - started).toBeLessThan(2000);
      await expect(catchUp).rejects.toMatchObject({ reason: reader === 'empty key store' ? 'missing' : 'wrong-kek', message: expect.stringContaining('restore content-keys.sqlite and credentials.key') });
      // Several retry periods later: never resubscribed, nothing logged as a retry.
      await new Promise((r) => setTimeout(r, 100));
      expect(subscribe).toHaveBeenCalledTimes(1);
      expect(logger.entries.filter((e) => e.level !== 'info').map((e) => e.level)).toEqual(['fatal']);
      expect(logger.entries.find((e) => e.level === 'fatal')!.msg).toMatch(/^projector stopped: the (event log was sealed with keys|content keys in DATA_DIR\/content-keys.sqlite do not open)/);
      expect(fatal).toEqual([projector.stoppedBy]);
      expect(projector.stoppedBy).toBeInstanceOf(ContentKeyMissingError);
      // The entry points' listeners (they exit): told once, or at once when they come after the stop.
      const toldAfter: Error[] = [];
      projector.whenStoppedForGood((e) => toldAfter.push(e));
      expect([fatal, toldAfter]).toEqual([[projector.stoppedBy], [projector.stoppedBy]]);
      // The batch holding the sealed event is not applied (it never opened); later waits fail at once instead of timing out.
      expect(await readStore.getCheckpoint('tally')).toBeUndefined();
      await expect(projector.waitFor(1_000_000n, 60_000)).rejects.toBe(projector.stoppedBy);
      close();
    });

    it('a transient read error (a busy database) is still retried: logged as an error, applied once it clears', async () => {
      const { writer, position, close } = await sealedLog('empty key store');
      let busy = 2;
      const open = writer.open.bind(writer);
      jest.spyOn(writer, 'open').mockImplementation(async (batch) => {
        if (busy > 0 && batch.some((e) => e.type === 'MessageSent')) {
          busy--;
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        }
        return open(batch);
      });
      const projector = new Projector(writer, readStore, [tallyProjection('tally')], logger, { waitTimeoutMs: 3000, batchSize: 100, retryDelayMs: 10 });
      projectors.push(projector);
      await projector.start();
      await projector.waitFor(position);
      expect(busy).toBe(0);
      expect(logger.errors().map((e) => e.msg)).toEqual([expect.stringMatching(/^projector could not apply a batch; retrying/), expect.stringMatching(/^projector could not apply a batch; retrying/)]);
      expect(logger.entries.some((e) => e.level === 'fatal')).toBe(false);
      expect(projector.stoppedBy).toBeUndefined();
      expect(await doc('tally', 'tally-a')).toMatchObject({ values: [1, 2] });
      close();
    });

    it('the same log read with its keys is applied (the failure above is the keys’, not the log’s)', async () => {
      const { writer, position, close } = await sealedLog('empty key store');
      const projector = new Projector(writer, readStore, [tallyProjection('tally')], logger, { waitTimeoutMs: 3000, batchSize: 100, retryDelayMs: 10 });
      projectors.push(projector);
      const opened = jest.spyOn(writer, 'open');
      await projector.start();
      await projector.waitFor(position);
      expect(await doc('tally', 'tally-a')).toMatchObject({ values: [1, 2] });
      expect(projector.stoppedBy).toBeUndefined();
      expect(opened).toHaveBeenCalled();
      close();
    });
  });

  it('stop() rejects pending waiters instead of leaving them hanging', async () => {
    const projector = newProjector([tallyProjection('tally')], { waitTimeoutMs: 60_000 });
    await projector.start();
    const waiting = projector.waitFor(1_000_000n);
    await projector.stop();
    await expect(waiting).rejects.toThrow('projector stopped');
  });
});
