import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir } from '@app/testing';
import { finishFreshLoad, isFreshLoad, LOADING_MARKER_SUFFIX, openReadModelDatabase, ReadModelsBeingLoadedError } from './sqlite';
import { SqliteReadStore } from './sqlite-read-store';

const PEOPLE = { name: 'people', fields: [{ name: 'name', type: 'string' as const }] };

/** A read-model database filled from zero loads in a cheap mode until the replay has caught up. */
describe('openReadModelDatabase: the fresh-load mode of a new read-model database', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let file: string;
  const open: Database.Database[] = [];
  const track = (db: Database.Database) => (open.push(db), db);

  beforeEach(() => {
    dir = makeTempDir();
    file = join(dir.path, 'read-models.sqlite');
  });
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
    dir.remove();
  });

  const putPerson = async (store: SqliteReadStore, id: string, position: bigint) =>
    store.commit({ writes: [{ collection: 'people', ops: [{ type: 'put', id, doc: { name: id }, position }] }], checkpoints: [{ name: 'people', position }] });

  it('given no file, opens it with the journal in memory, an exclusive lock and a marker beside it', () => {
    const db = track(openReadModelDatabase(file));
    expect(isFreshLoad(db)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
    expect(db.pragma('synchronous', { simple: true })).toBe(0);
    expect(existsSync(file + LOADING_MARKER_SUFFIX)).toBe(true);
    // Nobody else reads a half-loaded database.
    const other = track(new Database(file, { timeout: 0 }));
    expect(() => other.prepare('SELECT count(*) FROM sqlite_master').get()).toThrow(/locked|busy/i);
  });

  it('when the load has caught up, is durable in WAL mode with the configured synchronous, marker gone, readable by others', async () => {
    const db = track(openReadModelDatabase(file, 'full'));
    const store = new SqliteReadStore(db);
    await store.ensureCollection(PEOPLE);
    await putPerson(store, 'ada', 5n);
    await store.caughtUp();
    expect(isFreshLoad(db)).toBe(false);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(existsSync(file + LOADING_MARKER_SUFFIX)).toBe(false);
    const other = track(new Database(file, { timeout: 0 }));
    expect(other.prepare('SELECT doc FROM rm_people').all()).toEqual([{ doc: '{"name":"ada"}' }]);
    // Writes go on in WAL mode; telling it twice changes nothing.
    await putPerson(store, 'grace', 6n);
    await store.caughtUp();
    expect(await store.count('people')).toBe(2);
  });

  it('given an existing database, opens it in WAL at once and keeps its data', async () => {
    const first = track(openReadModelDatabase(file));
    const store = new SqliteReadStore(first);
    await store.ensureCollection(PEOPLE);
    await putPerson(store, 'ada', 5n);
    finishFreshLoad(first);
    first.close();
    const again = track(openReadModelDatabase(file));
    expect(isFreshLoad(again)).toBe(false);
    expect(again.pragma('journal_mode', { simple: true })).toBe('wal');
    const reopened = new SqliteReadStore(again);
    await reopened.ensureCollection(PEOPLE);
    expect(await reopened.get('people', 'ada')).toEqual({ name: 'ada' });
    expect(await reopened.getCheckpoint('people')).toBe(5n);
  });

  it('given a load that stopped before catching up (marker left), deletes the half-loaded database and loads from zero', async () => {
    const crashed = track(openReadModelDatabase(file));
    const store = new SqliteReadStore(crashed);
    await store.ensureCollection(PEOPLE);
    await putPerson(store, 'ada', 5n);
    crashed.close(); // the process stopped: the marker stays

    const db = track(openReadModelDatabase(file));
    expect(isFreshLoad(db)).toBe(true);
    const fresh = new SqliteReadStore(db);
    await fresh.ensureCollection(PEOPLE);
    expect(await fresh.count('people')).toBe(0);
    expect(await fresh.getCheckpoint('people')).toBeUndefined();
  });

  it('given a load still under way in another connection, refuses to open instead of deleting its work', async () => {
    const loading = track(openReadModelDatabase(file));
    const store = new SqliteReadStore(loading);
    await store.ensureCollection(PEOPLE);
    await putPerson(store, 'ada', 5n);
    expect(() => openReadModelDatabase(file)).toThrow(ReadModelsBeingLoadedError);
    expect(await store.get('people', 'ada')).toEqual({ name: 'ada' });
    expect(existsSync(file + LOADING_MARKER_SUFFIX)).toBe(true);
  });

  it('rolls back a failed batch in the fresh-load mode as in WAL mode', async () => {
    const db = track(openReadModelDatabase(file));
    const store = new SqliteReadStore(db);
    await store.ensureCollection({ ...PEOPLE, unique: [['name']] });
    await putPerson(store, 'ada', 5n);
    await expect(
      store.commit({
        writes: [{ collection: 'people', ops: [{ type: 'put', id: 'x', doc: { name: 'new' }, position: 6n }, { type: 'put', id: 'y', doc: { name: 'ada' }, position: 6n }] }],
        checkpoints: [{ name: 'people', position: 6n }],
      }),
    ).rejects.toThrow(/unique/);
    expect(await store.count('people')).toBe(1);
    expect(await store.getCheckpoint('people')).toBe(5n);
  });
});
