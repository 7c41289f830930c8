import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachedDocuments, type CollectionSpec } from '@app/application';
import { openSqlite } from './sqlite';
import { SqliteReadStore } from './sqlite-read-store';

/** Another process commits to the database file: person 1 ("ann") moves to team 4. */
function moveAnnToTeam4FromAnotherProcess(file: string): void {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 5000');
    db.prepare("UPDATE rm_people SET doc = ?, f_team = 4 WHERE id = '1'").run(JSON.stringify({ name: 'ann', team: 4 }));
    db.close();`;
  execFileSync(process.execPath, ['-e', script, file]);
}

type Person = { name: string; team: number };

/**
 * The next turn of the event loop. Another process's commit is seen by the change checks of the
 * turns after it (see SqliteReadStore.changeStamp); a test that commits from another process
 * synchronously, inside its own turn, takes one before checking.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

const spec: CollectionSpec = { name: 'people', fields: [{ name: 'team', type: 'number' }] };
const otherSpec: CollectionSpec = { name: 'teams', fields: [] };

/**
 * The cache authentication reads the caller's account and organization through (issue #23) must
 * never answer a document older than the read model: not after this process's projector commits,
 * and not after another process on the same data directory commits (API processes whose
 * projectors run in a worker). The embedded store's change stamp covers both.
 */
describe('CachedDocuments over the embedded read store', () => {
  let dir: string;
  let file: string;
  const opened: ReturnType<typeof openSqlite>[] = [];
  const open = async () => {
    const db = openSqlite(file);
    opened.push(db);
    const store = new SqliteReadStore(db);
    await store.ensureCollection(spec);
    await store.ensureCollection(otherSpec);
    return store;
  };
  let position = 0n;
  const put = (store: SqliteReadStore, collection: string, id: string, doc: object) =>
    store.commit({ writes: [{ collection, ops: [{ type: 'put', id, doc, position: ++position }] }], checkpoints: [] });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cached-documents-'));
    file = join(dir, 'read-models.sqlite');
  });
  afterEach(() => {
    for (const db of opened.splice(0)) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers from memory while nothing changed, frozen', async () => {
    const store = await open();
    await put(store, 'people', '1', { name: 'ann', team: 1 });
    const cache = new CachedDocuments<Person>(store, 'people');
    let loads = 0;
    const load = () => {
      loads++;
      return store.get<Person>('people', '1');
    };
    const first = await cache.get('1', load);
    const second = await cache.get('1', load);
    expect(second).toBe(first);
    expect(loads).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('reads again after a commit of this process to the collection, not after one to another collection', async () => {
    const store = await open();
    await put(store, 'people', '1', { name: 'ann', team: 1 });
    const cache = new CachedDocuments<Person>(store, 'people');
    const load = () => store.get<Person>('people', '1');
    await cache.get('1', load);
    await put(store, 'teams', 't', { name: 'blue' });
    let loads = 0;
    expect(await cache.get('1', () => (loads++, load()))).toEqual({ name: 'ann', team: 1 });
    expect(loads).toBe(0);
    await put(store, 'people', '1', { name: 'ann', team: 2 });
    expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 2 });
  });

  it('keeps an entry drawn from several collections while none of them changed', async () => {
    const store = await open();
    await put(store, 'people', '1', { name: 'ann', team: 1 });
    const cache = new CachedDocuments<Person>(store, ['people', 'teams']);
    let loads = 0;
    const load = () => {
      loads++;
      return store.get<Person>('people', '1');
    };
    await cache.get('1', load);
    await cache.get('1', load);
    expect(loads).toBe(1);
    await put(store, 'teams', 't', { name: 'blue' });
    await cache.get('1', load);
    expect(loads).toBe(2);
    await put(store, 'people', '2', { name: 'bob', team: 1 });
    await cache.get('1', load);
    expect(loads).toBe(3);
  });

  it('reads again after another connection to the same file commits', async () => {
    const reader = await open();
    const writer = await open();
    await put(writer, 'people', '1', { name: 'ann', team: 1 });
    const cache = new CachedDocuments<Person>(reader, 'people');
    const load = () => reader.get<Person>('people', '1');
    expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 1 });
    await put(writer, 'people', '1', { name: 'ann', team: 3 });
    expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 3 });
  });

  it('reads again after another process commits to the same file', async () => {
    const reader = await open();
    await put(reader, 'people', '1', { name: 'ann', team: 1 });
    const cache = new CachedDocuments<Person>(reader, 'people');
    const load = () => reader.get<Person>('people', '1');
    expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 1 });
    moveAnnToTeam4FromAnotherProcess(file);
    await nextTurn();
    expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 4 });
  });

  it('reads data_version once per turn: another process\'s commit shows in the next turn, or at once after a checkpoint read', async () => {
    const reader = await open();
    await put(reader, 'people', '1', { name: 'ann', team: 1 });
    const cache = new CachedDocuments<Person>(reader, 'people');
    const load = () => reader.get<Person>('people', '1');
    await nextTurn();
    const stamp = reader.changeStamp('people');
    expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 1 });
    // In the same turn (as a send's second check after its authentication's), the commit is not seen yet...
    moveAnnToTeam4FromAnotherProcess(file);
    expect(reader.changeStamp('people')).toBe(stamp);
    expect(cache.peek('1')).toEqual({ name: 'ann', team: 1 });
    // ...and in the next turn it is.
    await nextTurn();
    expect(reader.changeStamp('people')).not.toBe(stamp);
    expect(cache.peek('1')).toBeUndefined();
    expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 4 });
    // A read of the checkpoints (a read-your-writes wait) may show another process's commit: the next check reads data_version again.
    const later = reader.changeStamp('people');
    moveAnnToTeam4FromAnotherProcess(file);
    expect(reader.changeStamp('people')).toBe(later);
    await reader.getCheckpoints();
    expect(reader.changeStamp('people')).not.toBe(later);
  });

  describe('getMany (several documents, absent ones remembered too)', () => {
    const loader = (store: SqliteReadStore, calls: string[][]) => async (missing: string[]) => {
      calls.push(missing);
      return new Map((await store.getMany<Person>('people', missing)).map((d) => [d.id, d.doc]));
    };

    it('reads only what memory lacks, and remembers that a document does not exist', async () => {
      const store = await open();
      await put(store, 'people', '1', { name: 'ann', team: 1 });
      const cache = new CachedDocuments<Person>(store, 'people');
      const calls: string[][] = [];
      const first = await cache.getMany(['1', '2'], loader(store, calls));
      expect([...first]).toEqual([['1', { name: 'ann', team: 1 }], ['2', null]]);
      const second = await cache.getMany(['2', '1', '3'], loader(store, calls));
      expect([...second]).toEqual([['2', null], ['1', { name: 'ann', team: 1 }], ['3', null]]);
      expect(calls).toEqual([['1', '2'], ['3']]);
      expect(second.get('1')).toBe(first.get('1'));
      expect(Object.isFrozen(first.get('1'))).toBe(true);
      // get agrees: the absent document is absent without a read.
      expect(await cache.get('2', () => Promise.reject(new Error('read')))).toBeNull();
      expect(cache.peek('2')).toBeUndefined();
    });

    it('reads again, absent ones included, after a commit of this process to the collection', async () => {
      const store = await open();
      const cache = new CachedDocuments<Person>(store, 'people');
      const calls: string[][] = [];
      expect((await cache.getMany(['1'], loader(store, calls))).get('1')).toBeNull();
      await put(store, 'people', '1', { name: 'ann', team: 1 });
      expect((await cache.getMany(['1'], loader(store, calls))).get('1')).toEqual({ name: 'ann', team: 1 });
      expect(calls).toEqual([['1'], ['1']]);
    });

    it('does not keep what it read while the collection changed', async () => {
      const store = await open();
      const cache = new CachedDocuments<Person>(store, 'people');
      const calls: string[][] = [];
      const read = loader(store, calls);
      // A commit lands between the change check and the read's answer.
      expect((await cache.getMany(['1'], async (missing) => {
        const answer = await read(missing);
        await put(store, 'people', '1', { name: 'ann', team: 1 });
        return answer;
      })).get('1')).toBeNull();
      expect((await cache.getMany(['1'], read)).get('1')).toEqual({ name: 'ann', team: 1 });
    });

    it('reads again after another process commits to the same file', async () => {
      const reader = await open();
      await put(reader, 'people', '1', { name: 'ann', team: 1 });
      const cache = new CachedDocuments<Person>(reader, 'people');
      const calls: string[][] = [];
      await cache.getMany(['1'], loader(reader, calls));
      moveAnnToTeam4FromAnotherProcess(file);
      await nextTurn();
      expect((await cache.getMany(['1'], loader(reader, calls))).get('1')).toEqual({ name: 'ann', team: 4 });
      expect(calls).toHaveLength(2);
    });
  });

  describe('peek (the answer from memory only, for authentication\'s synchronous path)', () => {
    it('answers what get keeps while nothing changed, and nothing for a key never read', async () => {
      const store = await open();
      await put(store, 'people', '1', { name: 'ann', team: 1 });
      const cache = new CachedDocuments<Person>(store, ['people', 'teams']);
      expect(cache.peek('1')).toBeUndefined();
      const read = await cache.get('1', () => store.get<Person>('people', '1'));
      expect(cache.peek('1')).toBe(read);
      expect(cache.peek('2')).toBeUndefined();
    });

    it('answers nothing after a commit of this process to any of the collections', async () => {
      const store = await open();
      await put(store, 'people', '1', { name: 'ann', team: 1 });
      const cache = new CachedDocuments<Person>(store, ['people', 'teams']);
      await cache.get('1', () => store.get<Person>('people', '1'));
      await put(store, 'teams', 't', { name: 'blue' });
      expect(cache.peek('1')).toBeUndefined();
      // Nor afterwards: the entry is gone until get reads it again.
      expect(cache.peek('1')).toBeUndefined();
      expect(await cache.get('1', () => store.get<Person>('people', '1'))).toEqual({ name: 'ann', team: 1 });
      expect(cache.peek('1')).toEqual({ name: 'ann', team: 1 });
    });

    it('answers nothing after another connection or another process commits to the same file', async () => {
      const reader = await open();
      const writer = await open();
      await put(writer, 'people', '1', { name: 'ann', team: 1 });
      const cache = new CachedDocuments<Person>(reader, 'people');
      const load = () => reader.get<Person>('people', '1');
      await cache.get('1', load);
      await put(writer, 'people', '1', { name: 'ann', team: 3 });
      expect(cache.peek('1')).toBeUndefined();
      expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 3 });
      expect(cache.peek('1')).toEqual({ name: 'ann', team: 3 });
      moveAnnToTeam4FromAnotherProcess(file);
      await nextTurn();
      expect(cache.peek('1')).toBeUndefined();
      expect(await cache.get('1', load)).toEqual({ name: 'ann', team: 4 });
    });
  });

  it('does not keep a document read while the collection changed under the read', async () => {
    const store = await open();
    await put(store, 'people', '1', { name: 'ann', team: 1 });
    const cache = new CachedDocuments<Person>(store, 'people');
    // The load itself races with a commit: what it read may already be stale, so it is not kept.
    await cache.get('1', async () => {
      const doc = await store.get<Person>('people', '1');
      await put(store, 'people', '1', { name: 'ann', team: 5 });
      return doc;
    });
    expect(await cache.get('1', () => store.get<Person>('people', '1'))).toEqual({ name: 'ann', team: 5 });
  });
  describe('view: one change check for several reads', () => {
    it('answers from memory with one check, and reads again in a view taken after a commit', async () => {
      const store = await open();
      await put(store, 'people', '1', { name: 'ann', team: 1 });
      await put(store, 'people', '2', { name: 'bob', team: 1 });
      const cache = new CachedDocuments<Person>(store, 'people');
      let loads = 0;
      const load = (id: string) => () => (loads++, store.get<Person>('people', id));
      const stamps = jest.spyOn(store, 'changeStamp');
      const view = cache.view();
      expect(await view.get('1', load('1'))).toEqual({ name: 'ann', team: 1 });
      expect(await view.get('2', load('2'))).toEqual({ name: 'bob', team: 1 });
      // The view's check, then one after each load that was kept.
      expect(stamps).toHaveBeenCalledTimes(3);
      const again = cache.view();
      await again.get('1', load('1'));
      await again.get('2', load('2'));
      expect(loads).toBe(2);
      expect(stamps).toHaveBeenCalledTimes(4);
      await put(store, 'people', '1', { name: 'ann', team: 6 });
      expect(await cache.view().get('1', load('1'))).toEqual({ name: 'ann', team: 6 });
      expect(loads).toBe(3);
    });

    it('an older view reads what the cache no longer vouches for, and keeps nothing', async () => {
      const store = await open();
      await put(store, 'people', '1', { name: 'ann', team: 1 });
      const cache = new CachedDocuments<Person>(store, 'people');
      const old = cache.view();
      await put(store, 'people', '1', { name: 'ann', team: 7 });
      expect(await cache.get('1', () => store.get<Person>('people', '1'))).toEqual({ name: 'ann', team: 7 });
      let loads = 0;
      expect(await old.get('1', () => (loads++, store.get<Person>('people', '1')))).toEqual({ name: 'ann', team: 7 });
      expect(loads).toBe(1);
    });

    it('sees commits of another connection in the next view', async () => {
      const reader = await open();
      const writer = await open();
      await put(writer, 'people', '1', { name: 'ann', team: 1 });
      const cache = new CachedDocuments<Person>(reader, ['people', 'teams']);
      const load = () => reader.get<Person>('people', '1');
      expect(await cache.view().get('1', load)).toEqual({ name: 'ann', team: 1 });
      await put(writer, 'teams', 't', { name: 'red' });
      await put(writer, 'people', '1', { name: 'ann', team: 8 });
      expect(await cache.view().get('1', load)).toEqual({ name: 'ann', team: 8 });
    });
  });
});
