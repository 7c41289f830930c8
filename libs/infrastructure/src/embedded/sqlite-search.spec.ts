import { join } from 'node:path';
import { parseSearchQuery } from '@app/domain';
import type { UserMessageChange } from '@app/application';
import { makeTempDir } from '@app/testing';
import { finishFreshLoad, openReadModelDatabase, openSqlite } from './sqlite';
import { SqliteUserMessageStore } from './sqlite-user-message-store';

const added = (id: number, topic: string, searchText: string): UserMessageChange => ({
  type: 'message-added',
  message: { id, realmId: 1, senderId: 10, streamId: 5, topic, dmKey: null, hasLink: false, hasImage: false, hasAttachment: false, searchText },
  rows: [{ userId: 10, flags: 1 }],
});
const search = (operand: string) => ({ kind: 'search' as const, ...parseSearchQuery(operand), negated: false });

describe('the embedded search index', () => {
  it('is built at prepare for a database from before it (the upgrade step), once', async () => {
    const dir = makeTempDir();
    const path = join(dir.path, 'read-models.sqlite');
    const db = openSqlite(path);
    const store = new SqliteUserMessageStore(db);
    await store.prepare();
    await store.apply([{ position: 1n, changes: [added(1, 'plans', 'running late'), added(2, 'other', 'on time')] }], { name: 'um', position: 1n });
    // What a data directory of the version before issue 37 holds: the messages, no index.
    db.exec('DROP TABLE um_search; DROP TRIGGER IF EXISTS um_search_ai; DROP TRIGGER IF EXISTS um_search_ad; DROP TRIGGER IF EXISTS um_search_au;');
    await store.close();
    db.close();

    const reopened = openSqlite(path);
    const upgraded = new SqliteUserMessageStore(reopened);
    await upgraded.prepare();
    await upgraded.prepare(); // idempotent
    const find = async (operand: string) =>
      (await upgraded.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [search(operand)] }, { direction: 'newer', fromId: 0, limit: 10 })).map((m) => m.id);
    expect(await find('run')).toEqual([1]);
    expect(await find('plans')).toEqual([1]);
    await upgraded.apply([{ position: 2n, changes: [added(3, 'plans', 'runs again')] }], { name: 'um', position: 2n });
    expect(await find('run')).toEqual([1, 3]);
    expect((reopened.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'um_search_%'").get() as { n: number }).n).toBe(3);
    await upgraded.close();
    reopened.close();
    dir.remove();
  });

  it.each([['when the load finishes', false], ['at the first search, if that comes first', true]])(
    'is built from all the messages of a database filled from zero %s',
    async (_when, searchFirst) => {
      const dir = makeTempDir();
      const db = openReadModelDatabase(join(dir.path, 'copy.sqlite'));
      const store = new SqliteUserMessageStore(db);
      await store.prepare();
      await store.apply([{ position: 1n, changes: [added(1, 'plans', 'running late'), added(2, 'other', 'on time')] }], { name: 'um', position: 1n });
      await store.apply([{ position: 2n, changes: [{ type: 'messages-moved', messageIds: [2], streamId: 5, topic: 'moved' }, { type: 'messages-deleted', messageIds: [1] }] }], { name: 'um', position: 2n });
      const indexExists = () => db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'um_search'").get();
      expect(indexExists()).toEqual({ n: 0 }); // deferred while loading
      const find = async (operand: string) =>
        (await store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [search(operand)] }, { direction: 'newer', fromId: 0, limit: 10 })).map((m) => m.id);
      if (searchFirst) expect(await find('moved')).toEqual([2]);
      finishFreshLoad(db);
      expect(indexExists()).toEqual({ n: 1 });
      expect(await find('moved')).toEqual([2]);
      expect(await find('run')).toEqual([]);
      await store.apply([{ position: 3n, changes: [added(3, 'plans', 'runs')] }], { name: 'um', position: 3n });
      expect(await find('run')).toEqual([3]);
      expect(() => db.exec("INSERT INTO um_search (um_search, rank) VALUES ('integrity-check', 1)")).not.toThrow();
      await store.close();
      db.close();
      dir.remove();
    },
  );

  it('forgets everything on reset, and indexes what comes after', async () => {
    const dir = makeTempDir();
    const db = openSqlite(join(dir.path, 'read-models.sqlite'));
    const store = new SqliteUserMessageStore(db);
    await store.prepare();
    await store.apply([{ position: 1n, changes: [added(1, 'plans', 'running late')] }], { name: 'um', position: 1n });
    await store.reset('um');
    expect(db.prepare("SELECT count(*) AS n FROM um_search WHERE um_search MATCH 'run'").get()).toEqual({ n: 0 });
    await store.apply([{ position: 1n, changes: [added(1, 'plans', 'runs')] }], { name: 'um', position: 1n });
    expect(db.prepare("SELECT rowid AS id FROM um_search WHERE um_search MATCH 'run'").all()).toEqual([{ id: 1 }]);
    // The index is consistent with its content table (FTS5's integrity check).
    expect(() => db.exec("INSERT INTO um_search (um_search, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    await store.close();
    db.close();
    dir.remove();
  });
});
