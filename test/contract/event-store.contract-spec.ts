import { eventStoreContract, describeIfServer, makeTempDir } from '@app/testing';
import { openSqlite, SqliteEventStore, SqliteIdAllocator } from '@app/infrastructure';
import { UpcasterRegistry, UpcastingEventStore } from '@app/application';
import { EsdbEventStore } from '@app/infrastructure/eventstoredb/esdb-event-store';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { NamespacedEventStore } from '@app/infrastructure/eventstoredb/namespaced-event-store';

eventStoreContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'events.sqlite'));
  const store = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
  return { store, cleanup: async () => { await store.close(); db.close(); dir.remove(); } };
});

// The embedded store as the application opens it: the id sequences on the events' connection,
// so a send takes its message id inside its append's transaction (appendWithNextId).
eventStoreContract(
  'embedded (SQLite) with the id sequences',
  async () => {
    const dir = makeTempDir();
    const db = openSqlite(join(dir.path, 'events.sqlite'));
    const store = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
    const ids = new SqliteIdAllocator(db);
    store.useIdSequences(ids);
    return { store, ids, cleanup: async () => { await store.close(); db.close(); dir.remove(); } };
  },
  { appendWithNextId: true },
);

// Through the upcasting layer the application wraps every store in: appendWithNextId passes
// through, its events stamped with their current schema version.
eventStoreContract(
  'embedded (SQLite) with the id sequences, upcasting',
  async () => {
    const dir = makeTempDir();
    const db = openSqlite(join(dir.path, 'events.sqlite'));
    const raw = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
    const ids = new SqliteIdAllocator(db);
    raw.useIdSequences(ids);
    const store = new UpcastingEventStore(raw, new UpcasterRegistry([]));
    return { store, ids, cleanup: async () => { await raw.close(); db.close(); dir.remove(); } };
  },
  { appendWithNextId: true },
);

describe('SqliteEventStore.useIdSequences', () => {
  it('through the upcasting layer, stamps what appendWithNextId appends with the current schema versions', async () => {
    const dir = makeTempDir();
    const db = openSqlite(join(dir.path, 'events.sqlite'));
    const raw = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
    try {
      raw.useIdSequences(new SqliteIdAllocator(db));
      const store = new UpcastingEventStore(raw, new UpcasterRegistry([{ type: 'Reshaped', fromVersion: 1, upcast: (data) => data }]));
      const { id } = await store.appendWithNextId!('things', (id) => ({
        streamId: `thing-${id}`,
        events: [{ id: randomUUID(), type: 'Reshaped', data: {}, metadata: { schemaVersion: 1 } }, { id: randomUUID(), type: 'Plain', data: {}, metadata: { schemaVersion: 1 } }],
      }));
      expect((await raw.readStream(`thing-${id}`)).events.map((e) => e.metadata.schemaVersion)).toEqual([2, 1]);
    } finally {
      await raw.close();
      db.close();
      dir.remove();
    }
  });

  it('refuses id sequences on another connection', () => {
    const dir = makeTempDir();
    const db = openSqlite(join(dir.path, 'events.sqlite'));
    const other = openSqlite(join(dir.path, 'ids.sqlite'));
    try {
      const store = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
      expect(store.appendWithNextId).toBeUndefined();
      expect(() => store.useIdSequences(new SqliteIdAllocator(other))).toThrow(/own connection/);
      expect(store.appendWithNextId).toBeUndefined();
    } finally {
      db.close();
      other.close();
      dir.remove();
    }
  });
});

describeIfServer('ESDB_URL', 'EventStorePort contract: servers (EventStoreDB)', (url) => {
  eventStoreContract('servers (EventStoreDB)', async () => {
    const store = EsdbEventStore.connect(url);
    return { store, cleanup: () => store.close() };
  });
});

// What `npm run test:servers` gives each API test on one shared EventStoreDB: the adapter is
// store-agnostic, so its contract (and its isolation) is checked here on SQLite, with another
// namespace writing beside it.
eventStoreContract('namespaced (one shared store, test:servers)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'events.sqlite'));
  const shared = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
  const other = new NamespacedEventStore(shared, `other${randomUUID().slice(0, 8)}`);
  await other.appendToStream('before', [{ id: randomUUID(), type: 'Foreign', data: {}, metadata: { schemaVersion: 1 } }], { expectedRevision: 'any' });
  const store = new NamespacedEventStore(shared, `mine${randomUUID().slice(0, 8)}`);
  return { store, cleanup: async () => { await shared.close(); db.close(); dir.remove(); } };
});

describe('NamespacedEventStore isolation', () => {
  it('each namespace sees only its own events, from the head when it was opened, under their own stream names', async () => {
    const dir = makeTempDir();
    const db = openSqlite(join(dir.path, 'events.sqlite'));
    const shared = new SqliteEventStore(db, { pollIntervalMs: 5, now: () => new Date() });
    const append = (store: NamespacedEventStore, stream: string, type: string) =>
      store.appendToStream(stream, [{ id: randomUUID(), type, data: {}, metadata: { schemaVersion: 1 } }], { expectedRevision: 'any' });
    await shared.appendToStream('earlier-run', [{ id: randomUUID(), type: 'Old', data: {}, metadata: { schemaVersion: 1 } }], { expectedRevision: 'any' });
    const a = new NamespacedEventStore(shared, `a${randomUUID().slice(0, 8)}`);
    const b = new NamespacedEventStore(shared, `b${randomUUID().slice(0, 8)}`);
    expect(await a.headPosition()).toBeUndefined();
    expect(await a.readAll({ maxCount: 10 })).toEqual([]);
    for (let i = 0; i < 3; i++) {
      await append(a, 'realms', `A${i}`);
      await append(b, 'realms', `B${i}`);
    }
    const seen: string[] = [];
    const subscription = a.subscribeToAll({}, async (events) => void seen.push(...events.map((e) => `${e.streamId}:${e.type}`)));
    const all = await a.readAll({ maxCount: 2 });
    expect(all.map((e) => `${e.streamId}:${e.type}`)).toEqual(['realms:A0', 'realms:A1']);
    expect((await a.readAll({ after: all[1].position, maxCount: 10 })).map((e) => e.type)).toEqual(['A2']);
    expect((await a.readStream('realms')).events.map((e) => e.type)).toEqual(['A0', 'A1', 'A2']);
    expect((await b.readStream('realms')).events.map((e) => e.type)).toEqual(['B0', 'B1', 'B2']);
    const { position } = await append(a, 'realms', 'A3');
    expect(await a.headPosition()).toBe(position);
    for (let i = 0; i < 200 && seen.length < 4; i++) await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual(['realms:A0', 'realms:A1', 'realms:A2', 'realms:A3']);
    await expect(a.appendToStream('realms', [{ id: randomUUID(), type: 'X', data: {}, metadata: { schemaVersion: 1 } }], { expectedRevision: 0n })).rejects.toMatchObject({
      name: 'StreamRevisionConflictError',
      streamId: 'realms',
    });
    await subscription.close();
    await shared.close();
    db.close();
    dir.remove();
  });
});
