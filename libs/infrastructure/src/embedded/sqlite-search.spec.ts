import { join } from 'node:path';
import { parseSearchQuery } from '@app/domain';
import type { UserMessageChange } from '@app/application';
import { makeTempDir } from '@app/testing';
import { finishFreshLoad, openReadModelDatabase, openSqlite } from './sqlite';
import { searchMatch, searchTextMatcher } from './sqlite-search';
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

  it('answers a searcher who may read few of the matches as the index and the access rule do, whichever reader finishes (issue 37\'s worst case)', async () => {
    const dir = makeTempDir();
    const db = openSqlite(join(dir.path, 'read-models.sqlite'));
    // Two stores on the one database: the default turns (the index reader alone reads all 3,000
    // here) and turns of one message (both readers, many turns: findBySearch).
    const store = new SqliteUserMessageStore(db);
    const inTurns = new SqliteUserMessageStore(db, { searchTurnRows: 1 });
    await store.prepare();
    await inTurns.prepare();
    // 3,000 messages with the common word; user 20 has a row for twelve of them (a guest in a
    // quiet channel), user 10 for all. Some have a rare word, a phrase, a topic to match.
    const guestRow = (id: number) => id % 250 === 3;
    const changes: UserMessageChange[] = [];
    for (let id = 1; id <= 3000; id++) {
      const text = `one thing${id % 7 === 0 ? ' rare' : ''}${id % 100 === 3 ? ' a code review' : ''}${id % 500 === 3 ? ' review code' : ''}`;
      const change = added(id, id % 750 === 3 ? 'release notes' : 'plans', text);
      if (change.type === 'message-added') change.rows.push(...(guestRow(id) ? [{ userId: 20, flags: id % 2 }] : []));
      changes.push(change);
    }
    await store.apply([{ position: 1n, changes }], { name: 'um', position: 1n });
    const flagsOf = (id: number, userId: number) => (userId === 10 ? 1 : guestRow(id) ? id % 2 : null);
    for (const operand of ['one', 'rare', '"code review"', 'thing rare', 'release', 'notes one', 'nothing']) {
      const query = parseSearchQuery(operand);
      const all = (db.prepare('SELECT rowid AS id FROM um_search WHERE um_search MATCH ? ORDER BY rowid').pluck().all(searchMatch(query.words, query.phrases)) as number[]);
      for (const userId of [10, 20]) {
        for (const range of [
          { direction: 'older' as const, fromId: 3000, limit: 5 },
          { direction: 'older' as const, fromId: 1500, limit: 3 },
          { direction: 'older' as const, fromId: 2999, limit: 100 },
          { direction: 'newer' as const, fromId: 0, limit: 4 },
          { direction: 'newer' as const, fromId: 1000, limit: 60 },
        ]) {
          const readable = all.filter((id) => flagsOf(id, userId) !== null && (range.direction === 'older' ? id <= range.fromId : id >= range.fromId));
          const expected = (range.direction === 'older' ? readable.reverse() : readable).slice(0, range.limit).map((id) => ({ id, flags: flagsOf(id, userId) }));
          for (const [turns, s] of [['default', store], ['of one', inTurns]] as const) {
            const found = await s.findMessages({ realmId: 1, userId, scope: 'user', terms: [search(operand)] }, range);
            expect({ turns, operand, userId, range, found }).toEqual({ turns, operand, userId, range, found: expected });
            // With a channel narrow too (every message is in channel 5; none in 6).
            const inChannel = await s.findMessages({ realmId: 1, userId, scope: 'user', terms: [search(operand), { kind: 'stream', streamId: 5, negated: false }] }, range);
            expect({ turns, operand, userId, range, inChannel }).toEqual({ turns, operand, userId, range, inChannel: expected });
            expect(await s.findMessages({ realmId: 1, userId, scope: 'user', terms: [search(operand), { kind: 'stream', streamId: 6, negated: false }] }, range)).toEqual([]);
          }
        }
      }
    }
    // The match in memory is the index's: the phrase in order only, words in either column.
    expect(searchTextMatcher(['code', 'review'], [['code', 'review']])('plans', 'a code review')).toBe(true);
    expect(searchTextMatcher(['code', 'review'], [['code', 'review']])('plans', 'review code')).toBe(false);
    expect(searchTextMatcher(['release', 'one'], [])('Release notes', 'one thing')).toBe(true);
    expect(searchTextMatcher(['running'], [])(null, 'he runs')).toBe(true);
    await store.close();
    await inTurns.close();
    db.close();
    dir.remove();
  });
});
