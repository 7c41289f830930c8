import { join } from 'node:path';
import type Database from 'better-sqlite3';
import {
  CURRENT_SCHEMA_VERSION,
  REALM_REGISTRY_STREAM,
  RealmStringIdTakenError,
  realmRegistryDecider,
  type Decider,
  type RealmRegistryCommand,
} from '@app/domain';
import { openSqlite, SqliteEventStore, SqliteIdAllocator } from '@app/infrastructure';
import { makeTempDir, realmCreated } from '@app/testing';
import type { EventStorePort } from '../ports/event-store.port';
import type { RandomPort } from '../ports/random.port';
import { ServerBusyError } from './application.errors';
import { DeciderRunner } from './decider-runner';
import { deterministicEventId } from './event-ids';

/** Predictable command ids. */
class SequentialRandom implements RandomPort {
  private n = 0;
  alphanumeric(length: number) {
    return 'x'.repeat(length);
  }
  uuid() {
    this.n += 1;
    return `00000000-0000-4000-8000-${String(this.n).padStart(12, '0')}`;
  }
}

/**
 * An event store that lets another writer slip in between the runner's read and its append:
 * before each of the first `times` appends it appends `interloper(n)` to the same stream.
 */
function withConcurrentWriter(inner: EventStorePort, times: number, interloper: (n: number) => { type: string; data: object }) {
  const stats = { appendAttempts: 0, interlopers: 0 };
  const store: EventStorePort = Object.create(inner);
  store.appendToStream = async (streamId, events, options) => {
    stats.appendAttempts += 1;
    if (stats.interlopers < times) {
      stats.interlopers += 1;
      const { revision } = await inner.readStream(streamId);
      const e = interloper(stats.interlopers);
      await inner.appendToStream(
        streamId,
        [{ id: `ffffffff-0000-4000-8000-${String(stats.interlopers).padStart(12, '0')}`, type: e.type, data: e.data, metadata: { schemaVersion: 1 } }],
        { expectedRevision: revision },
      );
    }
    return inner.appendToStream(streamId, events, options);
  };
  return { store, stats };
}

const createRealm = (stringId: string, name = 'Acme Corp'): RealmRegistryCommand => ({
  type: 'CreateRealm',
  data: { stringId, name, description: '', now: '2026-01-01T00:00:00.000Z' },
});

describe('DeciderRunner (SQLite event store)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let db: Database.Database;
  let events: SqliteEventStore;

  beforeEach(() => {
    dir = makeTempDir('decider-runner-');
    db = openSqlite(join(dir.path, 'events.sqlite'));
    events = new SqliteEventStore(db, { pollIntervalMs: 50, now: () => new Date('2026-01-01T00:00:00Z') });
  });
  afterEach(async () => {
    await events.close();
    db.close();
    dir.remove();
  });

  const registry = async () => (await events.readStream(REALM_REGISTRY_STREAM)).events;

  it('appends the decided events with the schema version, the command id and the caller\'s metadata', async () => {
    const runner = new DeciderRunner(events, new SequentialRandom());
    const result = await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'), { actorId: 7, requestId: 'r-1' });

    expect(result.newEvents).toEqual([realmCreated({ realmId: 1, stringId: 'acme', name: 'Acme Corp', description: '' })]);
    const stored = await registry();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: deterministicEventId('00000000-0000-4000-8000-000000000001', REALM_REGISTRY_STREAM, 'no_stream', 0),
      streamId: REALM_REGISTRY_STREAM,
      revision: 0n,
      type: 'RealmCreated',
      data: { realmId: 1, stringId: 'acme', name: 'Acme Corp' },
      metadata: { schemaVersion: CURRENT_SCHEMA_VERSION, commandId: '00000000-0000-4000-8000-000000000001', actorId: 7, requestId: 'r-1' },
    });
    expect(result.position).toBe(stored[0].position);
    expect(await events.headPosition()).toBe(result.position);
  });

  it('draws command ids time-ordered where the random source offers it, so the event ids share their time', async () => {
    class TimeOrdered extends SequentialRandom {
      timeOrderedUuid() {
        return '018f2a3b-4c5d-7e6f-8a9b-0123456789ab';
      }
    }
    const runner = new DeciderRunner(events, new TimeOrdered());
    await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'));
    const [stored] = await registry();
    expect(stored.metadata).toMatchObject({ commandId: '018f2a3b-4c5d-7e6f-8a9b-0123456789ab' });
    expect(stored.id).toBe(deterministicEventId('018f2a3b-4c5d-7e6f-8a9b-0123456789ab', REALM_REGISTRY_STREAM, 'no_stream', 0));
    expect(stored.id.slice(0, 15)).toBe('018f2a3b-4c5d-7');
  });

  it('folds the existing stream before deciding and appends at its revision', async () => {
    const runner = new DeciderRunner(events, new SequentialRandom());
    await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'));
    const second = await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('lear', 'Lear'));

    expect(second.newEvents[0].data).toMatchObject({ realmId: 2, stringId: 'lear' });
    const stored = await registry();
    expect(stored.map((e) => [e.revision, e.data.stringId])).toEqual([[0n, 'acme'], [1n, 'lear']]);
    expect(stored[1].id).toBe(deterministicEventId('00000000-0000-4000-8000-000000000002', REALM_REGISTRY_STREAM, '0', 0));
  });

  it('appends several events of one decision atomically, in order, with distinct ids and the last position', async () => {
    type C = { type: 'Add'; data: { values: number[] } };
    type E = { type: 'Added'; data: { value: number } };
    const adder: Decider<C, E, number> = {
      initialState: () => 0,
      evolve: (s) => s + 1,
      decide: (c) => c.data.values.map((value) => ({ type: 'Added', data: { value } })),
    };
    const runner = new DeciderRunner(events, new SequentialRandom());
    const { position } = await runner.run(adder, 'adder-1', { type: 'Add', data: { values: [1, 2, 3] } });

    const stored = (await events.readStream('adder-1')).events;
    expect(stored.map((e) => [e.revision, e.data.value])).toEqual([[0n, 1], [1n, 2], [2n, 3]]);
    expect(new Set(stored.map((e) => e.id)).size).toBe(3);
    expect(new Set(stored.map((e) => e.metadata.commandId)).size).toBe(1);
    expect(position).toBe(stored[2].position);
  });

  it('returns position undefined and appends nothing when the decider decides nothing', async () => {
    type C = { type: 'Noop' };
    const noop: Decider<C, never, null> = { initialState: () => null, evolve: (s) => s, decide: () => [] };
    await events.appendToStream('other-1', [{ id: '11111111-1111-4111-8111-111111111111', type: 'X', data: {}, metadata: { schemaVersion: 1 } }], { expectedRevision: 'no_stream' });
    const head = await events.headPosition();

    const result = await new DeciderRunner(events, new SequentialRandom()).run(noop, 'noop-1', { type: 'Noop' });

    expect(result).toEqual({ newEvents: [], position: undefined });
    expect(await events.headPosition()).toBe(head);
    expect(await events.readStream('noop-1')).toEqual({ events: [], revision: 'no_stream' });
  });

  it('re-reads and decides again when another writer appended between its read and its append', async () => {
    const { store, stats } = withConcurrentWriter(events, 1, () => realmCreated({ realmId: 1, stringId: 'lear', name: 'Lear' }));
    const runner = new DeciderRunner(store, new SequentialRandom());

    const result = await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'));

    // The second decision saw the concurrent realm and took the next id.
    expect(result.newEvents[0].data).toMatchObject({ realmId: 2, stringId: 'acme' });
    expect(stats.appendAttempts).toBe(2);
    const stored = await registry();
    expect(stored.map((e) => [e.revision, e.data.realmId, e.data.stringId])).toEqual([[0n, 1, 'lear'], [1n, 2, 'acme']]);
    // Same command id on the retry, but ids derived from the new expected revision.
    expect(stored[1].metadata.commandId).toBe('00000000-0000-4000-8000-000000000001');
    expect(stored[1].id).toBe(deterministicEventId('00000000-0000-4000-8000-000000000001', REALM_REGISTRY_STREAM, '0', 0));
    expect(result.position).toBe(stored[1].position);
  });

  it('rebuilds a command given as a function of the state on every attempt', async () => {
    const { store } = withConcurrentWriter(events, 2, (n) => realmCreated({ realmId: n, stringId: `other${n}` }));
    const seen: number[] = [];
    const runner = new DeciderRunner(store, new SequentialRandom());
    await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, (state) => {
      seen.push(state.nextRealmId);
      return createRealm(`acme${state.nextRealmId}`);
    });
    expect(seen).toEqual([1, 2, 3]);
    expect((await registry()).map((e) => e.data.stringId)).toEqual(['other1', 'other2', 'acme3']);
  });

  it('a retry that now violates a rule fails with the domain error and appends nothing of its own', async () => {
    const { store } = withConcurrentWriter(events, 1, () => realmCreated({ realmId: 1, stringId: 'acme', name: 'First Acme' }));
    const runner = new DeciderRunner(store, new SequentialRandom());
    await expect(runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'))).rejects.toThrow(RealmStringIdTakenError);
    expect((await registry()).map((e) => e.data.name)).toEqual(['First Acme']);
  });

  /** A clock that only moves when the runner sleeps; jitter fixed at `jitter`. */
  const fakeTimer = (jitter = 0.5) => {
    const timer = { t: 0, sleeps: [] as number[], now: () => timer.t, jitter: () => jitter, sleep: async (ms: number) => void (timer.sleeps.push(ms), (timer.t += ms)) };
    return timer;
  };

  it('retries a stream that stays busy for its time budget, with a jittered exponential backoff, then answers 503 REQUEST_TIMEOUT with Retry-After', async () => {
    const { store, stats } = withConcurrentWriter(events, Number.POSITIVE_INFINITY, (n) => realmCreated({ realmId: n, stringId: `busy${n}` }));
    const conflicts: string[] = [];
    const runner = new DeciderRunner(store, new SequentialRandom(), undefined, undefined, undefined, { commandConflict: (outcome) => void conflicts.push(outcome) });
    const timer = fakeTimer(0.5);
    runner.timer = timer;
    runner.retryPolicy = { budgetMs: 500, baseDelayMs: 10, maxDelayMs: 80 };

    const error = await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme')).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ServerBusyError);
    expect(error).toMatchObject({ code: 'REQUEST_TIMEOUT', httpStatus: 503, extra: { 'retry-after': 1 } });
    expect((error as Error).message).toContain('The server is busy');
    // Half of min(80, 10·2^(n-1)): 5, 10, 20, 40, then 40 a time until the next wait would pass 500 ms.
    expect(timer.sleeps).toEqual([5, 10, 20, ...Array(11).fill(40)]);
    expect(timer.t).toBe(475);
    expect(stats.appendAttempts).toBe(timer.sleeps.length + 1);
    // Reported for monitoring: each retry, then the give-up.
    expect(conflicts).toEqual([...Array(14).fill('retried'), 'gave_up']);
    // Only the interloper's appends landed.
    const stored = await registry();
    expect(stored).toHaveLength(stats.appendAttempts);
    expect(stored.every((e) => e.data.stringId.startsWith('busy'))).toBe(true);
  });

  it('a retry that finds the stream quiet within its budget succeeds, however many attempts it took', async () => {
    const { store, stats } = withConcurrentWriter(events, 30, (n) => realmCreated({ realmId: n, stringId: `busy${n}` }));
    const runner = new DeciderRunner(store, new SequentialRandom());
    const timer = fakeTimer(0.1);
    runner.timer = timer;
    runner.retryPolicy = { budgetMs: 10_000, baseDelayMs: 2, maxDelayMs: 100 };

    const result = await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'));

    expect(result.newEvents[0].data).toMatchObject({ realmId: 31, stringId: 'acme' });
    expect(stats.appendAttempts).toBe(31);
    expect(timer.t).toBeLessThan(10_000);
  });

  it('counts the budget in time, from its first attempt: a budget smaller than the first wait gives up after one attempt', async () => {
    const { store, stats } = withConcurrentWriter(events, Number.POSITIVE_INFINITY, (n) => realmCreated({ realmId: n, stringId: `busy${n}` }));
    const runner = new DeciderRunner(store, new SequentialRandom());
    runner.timer = fakeTimer(0.99);
    runner.retryPolicy = { budgetMs: 1, baseDelayMs: 10, maxDelayMs: 10 };
    await expect(runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'))).rejects.toBeInstanceOf(ServerBusyError);
    expect(stats.appendAttempts).toBe(1);
  });

  it('takes COMMAND_RETRY_BUDGET_MS from the configuration (5 s without one)', () => {
    expect(new DeciderRunner(events, new SequentialRandom()).retryPolicy.budgetMs).toBe(5000);
    expect(new DeciderRunner(events, new SequentialRandom(), undefined, undefined, { commandRetryBudgetMs: 1234 }).retryPolicy.budgetMs).toBe(1234);
  });

  it('serialises concurrent runs of one stream in this process: none conflicts, each decides on the one before', async () => {
    let appends = 0;
    let conflicts = 0;
    const counting: EventStorePort = Object.create(events);
    counting.appendToStream = async (streamId, toAppend, options) => {
      appends += 1;
      try {
        return await events.appendToStream(streamId, toAppend, options);
      } catch (error) {
        conflicts += 1;
        throw error;
      }
    };
    const runner = new DeciderRunner(counting, new SequentialRandom());
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm(`org${i}`))));

    expect(conflicts).toBe(0);
    // The first run found the stream idle and went alone; the 19 that came while it held the
    // stream were decided together on one read and appended at once.
    expect(appends).toBe(2);
    // In the order asked: the i-th run saw the i runs before it.
    expect(results.map((r) => r.newEvents[0].data)).toEqual(Array.from({ length: 20 }, (_, i) => expect.objectContaining({ realmId: i + 1, stringId: `org${i}` })));
    const stored = await registry();
    expect(stored.map((e) => e.data.stringId)).toEqual(Array.from({ length: 20 }, (_, i) => `org${i}`));
    // Each run keeps its own command id (and so its own event ids); the batch shares the append's position.
    expect(new Set(stored.map((e) => e.metadata.commandId)).size).toBe(20);
    expect(new Set(stored.map((e) => e.id)).size).toBe(20);
    expect(results.slice(1).map((r) => r.position)).toEqual(Array(19).fill(stored[19].position));
    expect(results[0].position).toBe(stored[0].position);
    expect(runner.locks.size).toBe(0);
  });

  /** Holds `streamId`'s lock until the returned release is called, so that runs queue into one batch. */
  const holdStream = (runner: DeciderRunner, streamId: string) => {
    let release!: () => void;
    const held = runner.locks.run(streamId, () => new Promise<void>((resolve) => (release = resolve)));
    return async () => {
      release();
      await held;
    };
  };

  it('in a batch, a run whose decision fails fails alone: the others are appended and decide without it', async () => {
    const runner = new DeciderRunner(events, new SequentialRandom());
    await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'));
    const release = holdStream(runner, REALM_REGISTRY_STREAM);
    const runs = [
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('lear')),
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme')),
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('lear')),
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('zeta')),
    ];
    await release();
    const settled = await Promise.allSettled(runs);
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(settled[1]).toMatchObject({ reason: expect.any(RealmStringIdTakenError) });
    // The third saw the first's realm in the same batch.
    expect(settled[2]).toMatchObject({ reason: expect.any(RealmStringIdTakenError) });
    // The refused runs took no id: zeta is realm 3.
    expect(settled[3]).toMatchObject({ value: { newEvents: [expect.objectContaining({ data: expect.objectContaining({ realmId: 3, stringId: 'zeta' }) })] } });
    expect((await registry()).map((e) => [e.revision, e.data.stringId])).toEqual([[0n, 'acme'], [1n, 'lear'], [2n, 'zeta']]);
    expect(runner.locks.size).toBe(0);
  });

  it('a batch that another process beat is read and decided again as a whole, and appended once', async () => {
    const { store, stats } = withConcurrentWriter(events, 1, () => realmCreated({ realmId: 1, stringId: 'b' }));
    const runner = new DeciderRunner(store, new SequentialRandom());
    const release = holdStream(runner, REALM_REGISTRY_STREAM);
    const runs = ['a', 'b', 'c'].map((id) => runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm(id)));
    await release();
    const settled = await Promise.allSettled(runs);
    // The retry saw the other process's 'b': the second run is refused now, the others take ids 2 and 3.
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(stats.appendAttempts).toBe(2);
    expect((await registry()).map((e) => [e.data.realmId, e.data.stringId])).toEqual([[1, 'b'], [2, 'a'], [3, 'c']]);
  });

  it('never decides runs of two deciders of one stream together: each decider gets its own append, in order', async () => {
    const other: Decider<RealmRegistryCommand, never, ReturnType<typeof realmRegistryDecider.initialState>> = { ...realmRegistryDecider } as never;
    let appends = 0;
    const counting: EventStorePort = Object.create(events);
    counting.appendToStream = async (streamId, toAppend, options) => {
      appends += 1;
      return events.appendToStream(streamId, toAppend, options);
    };
    const runner = new DeciderRunner(counting, new SequentialRandom());
    const release = holdStream(runner, REALM_REGISTRY_STREAM);
    const runs = [
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('a')),
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('b')),
      runner.run(other, REALM_REGISTRY_STREAM, createRealm('c')),
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('d')),
    ];
    await release();
    await Promise.all(runs);
    expect(appends).toBe(3);
    expect((await registry()).map((e) => [e.data.realmId, e.data.stringId])).toEqual([[1, 'a'], [2, 'b'], [3, 'c'], [4, 'd']]);
  });

  it('runs on different streams do not wait for one another', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: EventStorePort = Object.create(events);
    slow.readStream = async (streamId, options) => {
      if (streamId === 'held-1') await held;
      return events.readStream(streamId, options);
    };
    const runner = new DeciderRunner(slow, new SequentialRandom());
    const blocked = runner.run(realmRegistryDecider, 'held-1', createRealm('a'));
    await runner.run(realmRegistryDecider, 'free-1', createRealm('b'));
    expect((await events.readStream('free-1')).events).toHaveLength(1);
    expect((await events.readStream('held-1')).events).toHaveLength(0);
    release();
    await blocked;
    expect(runner.locks.size).toBe(0);
  });

  it('read folds a stream for facts, appending nothing and not waiting for the stream\'s writers', async () => {
    const runner = new DeciderRunner(events, new SequentialRandom());
    expect(await runner.read(realmRegistryDecider, REALM_REGISTRY_STREAM)).toEqual(realmRegistryDecider.initialState());
    await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'));
    const head = await events.headPosition();
    // A writer holds the stream; read does not queue behind it.
    let release!: () => void;
    const held = runner.locks.run(REALM_REGISTRY_STREAM, () => new Promise<void>((resolve) => (release = resolve)));
    const state = await runner.read(realmRegistryDecider, REALM_REGISTRY_STREAM);
    expect(state.nextRealmId).toBe(2);
    release();
    await held;
    expect(await events.headPosition()).toBe(head);
  });

  it('a run that fails releases its stream for the next one', async () => {
    const runner = new DeciderRunner(events, new SequentialRandom());
    await runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'));
    const [refused, next] = await Promise.allSettled([
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme')),
      runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('lear')),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: expect.any(RealmStringIdTakenError) });
    expect(next).toMatchObject({ status: 'fulfilled' });
    expect(runner.locks.size).toBe(0);
  });

  it('lets a domain error through without appending or retrying', async () => {
    await events.appendToStream(
      REALM_REGISTRY_STREAM,
      [{ id: '22222222-2222-4222-8222-222222222222', type: 'RealmCreated', data: realmCreated({ stringId: 'acme' }).data, metadata: { schemaVersion: 1 } }],
      { expectedRevision: 'no_stream' },
    );
    const { store, stats } = withConcurrentWriter(events, 0, () => ({ type: 'never', data: {} }));
    const runner = new DeciderRunner(store, new SequentialRandom());

    await expect(runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'))).rejects.toThrow("Subdomain 'acme' is already in use");
    expect(stats.appendAttempts).toBe(0);
    expect(await registry()).toHaveLength(1);
  });

  it('does not retry an append that fails for another reason than a revision conflict', async () => {
    let attempts = 0;
    const broken: EventStorePort = Object.create(events);
    broken.appendToStream = async () => {
      attempts += 1;
      throw new Error('disk I/O error');
    };
    const runner = new DeciderRunner(broken, new SequentialRandom());
    await expect(runner.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('acme'))).rejects.toThrow('disk I/O error');
    expect(attempts).toBe(1);
    expect(await registry()).toEqual([]);
  });
  it('with newStream, appends at no_stream without reading, and reads and decides again if the stream exists after all', async () => {
    let reads = 0;
    const counting: EventStorePort = Object.create(events);
    counting.readStream = async (streamId, options) => {
      reads += 1;
      return events.readStream(streamId, options);
    };
    const counted = new DeciderRunner(counting, new SequentialRandom());
    await counted.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('first'), {}, { newStream: true });
    expect(reads).toBe(0);
    expect((await registry()).map((e) => e.data.stringId)).toEqual(['first']);

    // The stream exists: the blind append conflicts, the retry folds the stream at once (no backoff:
    // nobody raced it) and applies the rules.
    const timer = fakeTimer();
    counted.timer = timer;
    await counted.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('second'), {}, { newStream: true });
    expect(reads).toBe(1);
    expect(timer.sleeps).toEqual([]);
    await expect(counted.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('first'), {}, { newStream: true })).rejects.toThrow(
      "Subdomain 'first' is already in use",
    );
    expect((await registry()).map((e) => e.data.stringId)).toEqual(['first', 'second']);
  });

  it('stateless, decides on the initial state and appends at any without ever reading the stream', async () => {
    let reads = 0;
    const counting: EventStorePort = Object.create(events);
    counting.readStream = async (streamId, options) => {
      reads += 1;
      return events.readStream(streamId, options);
    };
    const counted = new DeciderRunner(counting, new SequentialRandom());
    await counted.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('first'), {}, { stateless: true });
    // The registry's own rule would refuse this; a stateless run does not see the stream.
    await counted.run(realmRegistryDecider, REALM_REGISTRY_STREAM, createRealm('first'), {}, { stateless: true });
    expect(reads).toBe(0);
    expect((await registry()).map((e) => e.data.stringId)).toEqual(['first', 'first']);
  });
});

/** A thing created once under an id: a second Create on its stream is refused. */
type Create = { type: 'Create'; data: { id: number } };
type Created = { type: 'Created'; data: { id: number } };
const thingDecider: Decider<Create, Created, { exists: boolean }> = {
  decide: (command, state) => {
    if (state.exists) throw new RealmStringIdTakenError(`thing ${command.data.id}`);
    return [{ type: 'Created', data: { id: command.data.id } }];
  },
  evolve: () => ({ exists: true }),
  initialState: () => ({ exists: false }),
};

describe('DeciderRunner.runWithNextId', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let db: Database.Database;
  let events: SqliteEventStore;
  let ids: SqliteIdAllocator;

  beforeEach(() => {
    dir = makeTempDir('decider-runner-ids-');
    db = openSqlite(join(dir.path, 'events.sqlite'));
    events = new SqliteEventStore(db, { pollIntervalMs: 50, now: () => new Date('2026-01-01T00:00:00Z') });
    ids = new SqliteIdAllocator(db);
  });
  afterEach(async () => {
    await events.close();
    db.close();
    dir.remove();
  });

  const create = (id: number): Create => ({ type: 'Create', data: { id } });

  it('answers undefined when the store cannot take ids in its appends (the caller takes the id itself)', async () => {
    const runner = new DeciderRunner(events, new SequentialRandom());
    expect(await runner.runWithNextId(thingDecider, 'thing', (id) => `thing-${id}`, create)).toBeUndefined();
    expect(await events.headPosition()).toBeUndefined();
  });

  it('takes the next id and appends what the decider decides under it, as run with newStream would', async () => {
    events.useIdSequences(ids);
    await ids.advanceTo('thing', 41);
    const runner = new DeciderRunner(events, new SequentialRandom());
    const result = await runner.runWithNextId(thingDecider, 'thing', (id) => `thing-${id}`, create, { actorId: 7 });
    expect(result).toEqual({ id: 42, newEvents: [{ type: 'Created', data: { id: 42 } }], position: expect.any(BigInt) });
    const [stored] = (await events.readStream('thing-42')).events;
    const commandId = '00000000-0000-4000-8000-000000000001';
    expect(stored).toMatchObject({
      id: deterministicEventId(commandId, 'thing-42', 'no_stream', 0),
      type: 'Created',
      data: { id: 42 },
      metadata: { schemaVersion: CURRENT_SCHEMA_VERSION, commandId, actorId: 7 },
      position: result!.position,
    });
    expect(await ids.next('thing')).toBe(43);
  });

  it('on a stream that exists after all, runs the command on it (the decider refuses here)', async () => {
    events.useIdSequences(ids);
    await events.appendToStream('thing-1', [{ id: '10000000-0000-4000-8000-000000000000', type: 'Created', data: { id: 1 }, metadata: { schemaVersion: 1 } }], { expectedRevision: 'no_stream' });
    const runner = new DeciderRunner(events, new SequentialRandom());
    await expect(runner.runWithNextId(thingDecider, 'thing', (id) => `thing-${id}`, create)).rejects.toBeInstanceOf(RealmStringIdTakenError);
    expect((await events.readStream('thing-1')).events).toHaveLength(1);
  });

  it('takes no id when the decider refuses', async () => {
    events.useIdSequences(ids);
    const runner = new DeciderRunner(events, new SequentialRandom());
    const refusing: typeof thingDecider = { ...thingDecider, decide: () => { throw new RealmStringIdTakenError('no'); } };
    await expect(runner.runWithNextId(refusing, 'thing', (id) => `thing-${id}`, create)).rejects.toBeInstanceOf(RealmStringIdTakenError);
    expect(await ids.next('thing')).toBe(1);
  });
});
