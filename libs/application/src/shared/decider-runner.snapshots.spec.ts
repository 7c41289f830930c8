import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { botStorageDecider, type BotStorageCommand, type Decider, DomainError } from '@app/domain';
import { openSqlite, SqliteEventStore } from '@app/infrastructure';
import { SqliteSnapshotStore } from '@app/infrastructure/embedded/sqlite-snapshot-store';
import { makeTempDir } from '@app/testing';
import type { EventStorePort, ReadStreamResult } from '../ports/event-store.port';
import type { RandomPort } from '../ports/random.port';
import type { DeciderSnapshot, SnapshotStorePort } from '../ports/snapshot-store.port';
import { UpcasterRegistry, UpcastingEventStore } from './event-upcasting';
import { DeciderRunner } from './decider-runner';

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

class NameTakenError extends DomainError {
  constructor(name: string) {
    super(`Name '${name}' is already in use`);
  }
}

/** A stream of unique names: the shape of users-<realm> (creations checked for uniqueness). */
type Add = { type: 'Add'; data: { name: string } };
type Added = { type: 'Added'; data: { name: string } };
type Names = { names: Record<string, number>; count: number };
const namesDecider: Decider<Add, Added, Names> = {
  snapshot: { name: 'names', version: 1 },
  initialState: () => ({ names: {}, count: 0 }),
  evolve: (s, e) => (e.type === 'Added' ? { names: { ...s.names, [e.data.name]: s.count }, count: s.count + 1 } : s),
  decide: (c, s) => {
    if (s.names[c.data.name] !== undefined) throw new NameTakenError(c.data.name);
    return [{ type: 'Added', data: { name: c.data.name } }];
  },
};
const add = (name: string): Add => ({ type: 'Add', data: { name } });

describe('DeciderRunner with snapshots', () => {
  const STREAM = 'names-1';
  let dir: ReturnType<typeof makeTempDir>;
  let eventsDb: Database.Database;
  let snapshotsDb: Database.Database;
  let events: SqliteEventStore;
  let snapshots: SqliteSnapshotStore;
  /** Events each readStream call returned, in call order. */
  let reads: number[];
  let spied: EventStorePort;
  let warnings: string[];
  const logger = {
    warn: (_: Record<string, unknown>, message: string) => {
      warnings.push(message);
    },
  };

  beforeEach(() => {
    dir = makeTempDir('decider-snapshots-');
    eventsDb = openSqlite(join(dir.path, 'events.sqlite'));
    snapshotsDb = openSqlite(join(dir.path, 'snapshots.sqlite'));
    events = new SqliteEventStore(eventsDb, { pollIntervalMs: 50, now: () => new Date('2026-01-01T00:00:00Z') });
    snapshots = new SqliteSnapshotStore(snapshotsDb);
    reads = [];
    warnings = [];
    spied = Object.create(events);
    spied.readStream = async (streamId, options): Promise<ReadStreamResult> => {
      const result = await events.readStream(streamId, options);
      reads.push(result.events.length);
      return result;
    };
  });
  afterEach(async () => {
    await events.close();
    eventsDb.close();
    snapshotsDb.close();
    dir.remove();
  });

  /** Appends `count` Added events straight to the log (as an import would), names n0, n1, … */
  async function history(count: number, from = 0, stream = STREAM, type = 'Added', schemaVersion = 1) {
    const batch = Array.from({ length: count }, (_, i) => ({
      id: `${stream === STREAM ? 'aaaaaaaa' : 'eeeeeeee'}-0000-4000-8000-${String(from + i).padStart(12, '0')}`,
      type,
      data: { name: `n${from + i}` },
      metadata: { schemaVersion },
    }));
    const { revision } = await events.readStream(stream, { fromRevision: BigInt(Math.max(from - 1, 0)) });
    await events.appendToStream(stream, batch, { expectedRevision: revision });
  }
  /** A runner on the spied store with the SQLite snapshots (null: with no snapshot store). */
  const runner = (store: EventStorePort = spied, snapshotStore: SnapshotStorePort | null = snapshots) =>
    new DeciderRunner(store, new SequentialRandom(), snapshotStore ?? undefined, logger);
  const stored = () => snapshots.load(STREAM, 'names');

  it('given a long stream and no snapshot, reads it whole once, stores a snapshot of the fold at its last revision', async () => {
    await history(250);

    const { newEvents } = await runner().run(namesDecider, STREAM, add('fresh'));

    expect(newEvents).toEqual([{ type: 'Added', data: { name: 'fresh' } }]);
    expect(reads).toEqual([250]);
    const snapshot = await stored();
    expect(snapshot).toMatchObject({ streamId: STREAM, decider: 'names', revision: 249n, eventId: 'aaaaaaaa-0000-4000-8000-000000000249' });
    expect(snapshot!.version).toMatch(/^1:[0-9a-f]{16}$/);
    expect(JSON.parse(snapshot!.state)).toMatchObject({ count: 250, names: { n0: 0, n249: 249 } });
  });

  it('given a snapshot, reads only from its revision on and still applies every rule to the whole history', async () => {
    await history(250);
    const r = runner();
    await r.run(namesDecider, STREAM, add('fresh'));
    reads = [];

    // A name from before the snapshot, one from after it, a new one.
    await expect(r.run(namesDecider, STREAM, add('n3'))).rejects.toThrow("Name 'n3' is already in use");
    await expect(r.run(namesDecider, STREAM, add('fresh'))).rejects.toThrow("Name 'fresh' is already in use");
    await r.run(namesDecider, STREAM, add('newer'));

    // The event at the snapshot's revision (checked) and the ones after it: 'fresh', then 'newer'.
    expect(reads).toEqual([2, 2, 2]);
    expect((await events.readStream(STREAM)).events.map((e) => e.data.name).slice(-2)).toEqual(['fresh', 'newer']);
  });

  it('keeps every command\'s read bounded however long the stream grows (the bound this exists for)', async () => {
    await history(500);
    const r = runner();
    for (let i = 0; i < 210; i++) await r.run(namesDecider, STREAM, add(`later${i}`));

    // Without snapshots each command would read 500 events and more; with them, at most one
    // interval plus the checked event.
    expect(reads[0]).toBe(500);
    expect(Math.max(...reads.slice(1))).toBeLessThanOrEqual(DeciderRunner.SNAPSHOT_EVERY + 1);
    expect((await stored())!.revision).toBe(699n);
    await expect(r.run(namesDecider, STREAM, add('n499'))).rejects.toThrow(NameTakenError);
    await expect(r.run(namesDecider, STREAM, add('later150'))).rejects.toThrow(NameTakenError);
  });

  it('without a snapshot store, reads the whole stream on every command (as before)', async () => {
    await history(300);
    const r = runner(spied, null);
    await r.run(namesDecider, STREAM, add('a'));
    await r.run(namesDecider, STREAM, add('b'));
    expect(reads).toEqual([300, 301]);
  });

  it('stores no snapshot while a read folds fewer events than the interval', async () => {
    await history(DeciderRunner.SNAPSHOT_EVERY - 1);
    await runner().run(namesDecider, STREAM, add('a'));
    expect(await stored()).toBeUndefined();
    await runner().run(namesDecider, STREAM, add('b'));
    expect(await stored()).toMatchObject({ revision: BigInt(DeciderRunner.SNAPSHOT_EVERY - 1) });
  });

  it('the interval can be changed (tests use small streams)', async () => {
    await history(5);
    const r = runner();
    r.snapshotEvery = 5;
    await r.run(namesDecider, STREAM, add('a'));
    expect(await stored()).toMatchObject({ revision: 4n });
  });

  describe('ignores a snapshot it cannot trust and reads the stream whole', () => {
    const bogus = (patch: Partial<DeciderSnapshot>): DeciderSnapshot => ({
      streamId: STREAM,
      decider: 'names',
      version: 'x',
      revision: 1n,
      eventId: 'aaaaaaaa-0000-4000-8000-000000000001',
      // A state in which 'n0' is free and 'ghost' is taken: trusting it would show.
      state: JSON.stringify({ names: { ghost: 0 }, count: 1 }),
      ...patch,
    });
    const versionOfNames = async () => {
      // The version the runner stamps: take it from a snapshot it stored on another stream.
      await history(100, 0, 'names-version');
      await runner().run(namesDecider, 'names-version', add('x'));
      return (await snapshots.load('names-version', 'names'))!.version;
    };

    it('of another version', async () => {
      await history(3);
      await snapshots.save(bogus({ version: '0:0000000000000000' }));
      reads = [];
      await expect(runner().run(namesDecider, STREAM, add('n0'))).rejects.toThrow(NameTakenError);
      await runner().run(namesDecider, STREAM, add('ghost'));
      expect(reads).toEqual([3, 3]);
    });

    it('of the same declared version but another fold (a changed evolve nobody re-versioned)', async () => {
      await history(100);
      await runner().run(namesDecider, STREAM, add('a'));
      const changed: Decider<Add, Added, Names> = { ...namesDecider, evolve: (s, e) => ({ names: { ...s.names, [e.data.name.toUpperCase()]: s.count }, count: s.count + 1 }) };
      reads = [];
      await expect(runner().run(changed, STREAM, add('N5'))).rejects.toThrow(NameTakenError);
      expect(reads).toEqual([101]);
    });

    it('whose event is not the stream\'s event at that revision (the log was replaced)', async () => {
      await history(3);
      await snapshots.save(bogus({ version: await versionOfNames(), eventId: 'bbbbbbbb-0000-4000-8000-000000000001' }));
      reads = [];
      await expect(runner().run(namesDecider, STREAM, add('n0'))).rejects.toThrow(NameTakenError);
      expect(reads).toEqual([2, 3]);
    });

    it('beyond the end of the stream (an older log restored)', async () => {
      await history(3);
      await snapshots.save(bogus({ version: await versionOfNames(), revision: 40n }));
      reads = [];
      await runner().run(namesDecider, STREAM, add('ghost'));
      expect(reads).toEqual([0, 3]);
    });

    it('that does not decode, with a warning', async () => {
      await history(3);
      await snapshots.save(bogus({ version: await versionOfNames(), state: '{not json' }));
      reads = [];
      await runner().run(namesDecider, STREAM, add('ghost'));
      // From the snapshot's revision (revisions 1 and 2), then the whole stream.
      expect(reads).toEqual([2, 3]);
      expect(warnings).toEqual(['could not decode a snapshot']);
    });

    it('that the store cannot give, with a warning; a store that cannot save does not fail the command', async () => {
      await history(150);
      const broken: SnapshotStorePort = {
        load: async () => {
          throw new Error('snapshot store down');
        },
        save: async () => {
          throw new Error('snapshot store down');
        },
        removeDecider: async () => 0,
        delete: async () => {
          throw new Error('snapshot store down');
        },
        close: async () => undefined,
      };
      const { newEvents } = await runner(spied, broken).run(namesDecider, STREAM, add('a'));
      expect(newEvents).toHaveLength(1);
      expect(reads).toEqual([150]);
      expect(warnings).toEqual(['could not load a snapshot', 'could not store a snapshot']);
    });
  });

  it('deletes the snapshots an appended event forgets (its own read\'s included), and only once it is appended', async () => {
    type Erase = { type: 'Erase'; data: { name: string } };
    const erasing: Decider<Add | Erase, Added | { type: 'Erased'; data: { name: string } }, Names> = {
      ...(namesDecider as unknown as Decider<Add | Erase, Added | { type: 'Erased'; data: { name: string } }, Names>),
      snapshot: { name: 'names', version: 1, forgets: (e) => (e.type === 'Erased' ? [STREAM, 'other-1'] : []) },
      decide: (c, s) => (c.type === 'Erase' ? [{ type: 'Erased', data: { name: c.data.name } }] : namesDecider.decide(c, s)),
    };
    await history(250);
    await snapshots.save({ streamId: 'other-1', decider: 'other', version: '1:x', revision: 0n, eventId: 'e', state: '"other"' });
    await snapshots.save({ streamId: 'kept-1', decider: 'other', version: '1:x', revision: 0n, eventId: 'e', state: '"kept"' });
    const r = runner();
    await r.run(erasing, STREAM, add('fresh'));
    expect(await stored()).toBeDefined();

    await r.run(erasing, STREAM, { type: 'Erase', data: { name: 'n1' } });
    expect(await stored()).toBeUndefined();
    expect(await snapshots.load('other-1', 'other')).toBeUndefined();
    expect(await snapshots.load('kept-1', 'other')).toMatchObject({ state: '"kept"' });

    // A refused command appends nothing and forgets nothing.
    await r.run(erasing, STREAM, add('again'));
    await snapshots.save({ streamId: 'other-1', decider: 'other', version: '1:x', revision: 0n, eventId: 'e', state: '"other"' });
    await expect(r.run(erasing, STREAM, add('again'))).rejects.toThrow(NameTakenError);
    expect(await snapshots.load('other-1', 'other')).toBeDefined();
  });

  it('events read after a snapshot are upcast like any other read', async () => {
    // Added v1 carried `label`; v2 carries `name`.
    const registry = new UpcasterRegistry([{ type: 'Added', fromVersion: 1, upcast: ({ label }: { label: string }) => ({ name: label }) }]);
    const upcasting = new UpcastingEventStore(spied, registry);
    const r = runner(upcasting);
    await history(100, 0, STREAM, 'Added', 2);
    await r.run(namesDecider, STREAM, add('a'));
    expect(await stored()).toMatchObject({ revision: 99n });
    // Old-shaped events land after the snapshot (an import of an older log, say).
    const { revision } = await events.readStream(STREAM);
    await events.appendToStream(
      STREAM,
      [{ id: 'cccccccc-0000-4000-8000-000000000001', type: 'Added', data: { label: 'legacy' }, metadata: { schemaVersion: 1 } }],
      { expectedRevision: revision },
    );
    reads = [];
    await expect(r.run(namesDecider, STREAM, add('legacy'))).rejects.toThrow("Name 'legacy' is already in use");
    expect(reads).toEqual([3]);
  });

  it('a new upcaster makes older snapshots untrusted (the shapes the fold saw changed)', async () => {
    await history(100);
    await runner().run(namesDecider, STREAM, add('a'));
    const registry = new UpcasterRegistry([{ type: 'Other', fromVersion: 1, upcast: (d: object) => d }]);
    reads = [];
    await runner(new UpcastingEventStore(spied, registry)).run(namesDecider, STREAM, add('b'));
    expect(reads).toEqual([101]);
  });

  it('keeps optimistic concurrency: a write between the read and the append makes it read and decide again', async () => {
    await history(150);
    const r = runner();
    await r.run(namesDecider, STREAM, add('a'));
    let interloped = false;
    const racing: EventStorePort = Object.create(spied);
    racing.appendToStream = async (streamId, batch, options) => {
      if (!interloped) {
        interloped = true;
        const { revision } = await events.readStream(streamId);
        await events.appendToStream(streamId, [{ id: 'dddddddd-0000-4000-8000-000000000001', type: 'Added', data: { name: 'b' }, metadata: { schemaVersion: 1 } }], {
          expectedRevision: revision,
        });
      }
      return events.appendToStream(streamId, batch, options);
    };
    await expect(runner(racing).run(namesDecider, STREAM, add('b'))).rejects.toThrow("Name 'b' is already in use");
    expect((await events.readStream(STREAM)).events.filter((e) => e.data.name === 'b')).toHaveLength(1);
  });

  describe('state that is not plain JSON', () => {
    type Put = { type: 'Put'; data: { key: string } };
    type PutDone = { type: 'PutDone'; data: { key: string } };
    const setDecider: Decider<Put, PutDone, Set<string>> = {
      snapshot: { name: 'keys', version: 1 },
      initialState: () => new Set(),
      evolve: (s, e) => new Set([...s, e.data.key]),
      decide: (c, s) => (s.has(c.data.key) ? [] : [{ type: 'PutDone', data: { key: c.data.key } }]),
    };

    it('is refused as a snapshot when the decider gives no codec (with a warning), and commands stay right', async () => {
      const r = runner();
      r.snapshotEvery = 2;
      for (const key of ['a', 'b', 'c']) await r.run(setDecider, 'keys-1', { type: 'Put', data: { key } });
      expect(await snapshots.load('keys-1', 'keys')).toBeUndefined();
      expect(warnings).toContain('could not store a snapshot');
      expect((await r.run(setDecider, 'keys-1', { type: 'Put', data: { key: 'a' } })).newEvents).toEqual([]);
    });

    it('round-trips through the decider\'s codec (bot storage keeps a Map)', async () => {
      const r = runner();
      r.snapshotEvery = 3;
      const put = (key: string, value: string): BotStorageCommand => ({
        type: 'PutBotStorage',
        data: { botId: 9, now: '2026-01-01T00:00:00.000Z', entries: [{ key, value }], sizeLimit: 10_000 },
      });
      for (const [k, v] of [['a', '1'], ['b', '2'], ['c', '3']]) await r.run(botStorageDecider, 'bot_storage-9', put(k, v));
      await r.run(botStorageDecider, 'bot_storage-9', put('a', '10'));
      const snapshot = await snapshots.load('bot_storage-9', 'bot-storage');
      expect(JSON.parse(snapshot!.state)).toEqual({ entries: [['a', '1'], ['b', '2'], ['c', '3']], size: 6 });
      reads = [];
      // Removing a key only the snapshot knows: the decoded Map has it.
      const { newEvents } = await r.run(botStorageDecider, 'bot_storage-9', { type: 'RemoveBotStorage', data: { botId: 9, now: '2026-01-01T00:00:00.000Z', keys: ['b'] } });
      expect(newEvents).toEqual([expect.objectContaining({ type: 'BotStorageEntriesRemoved', data: expect.objectContaining({ keys: ['b'] }) })]);
      expect(reads).toEqual([2]);
    });
  });
});
