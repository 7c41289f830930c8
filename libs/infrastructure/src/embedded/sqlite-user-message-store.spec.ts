import type { UserMessageChange } from '@app/application';
import { MESSAGE_FLAG_BITS as F } from '@app/domain';
import { openSqlite } from './sqlite';
import { SqliteUserMessageStore } from './sqlite-user-message-store';

/** The two levels of the embedded store: rows land in the inbox and move to the main table intact. */
describe('SqliteUserMessageStore inbox and merge', () => {
  const setup = async (compactAtMessages: number) => {
    const db = openSqlite(':memory:');
    const store = new SqliteUserMessageStore(db, { compactAtMessages });
    await store.prepare();
    let position = 0n;
    const apply = (...changes: UserMessageChange[]) => store.apply([{ position: ++position, changes }], { name: 'um', position });
    const add = (id: number, users: number[]): UserMessageChange => ({
      type: 'message-added',
      message: { id, realmId: 1, senderId: 1, streamId: 5, topic: 't', dmKey: null, hasLink: false, hasImage: false, hasAttachment: false, searchText: '' },
      rows: users.map((userId) => ({ userId, flags: 0 })),
    });
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { db, store, apply, add, count };
  };
  const ids = (store: SqliteUserMessageStore, userId: number) =>
    store.findMessages({ realmId: 1, userId, scope: 'user', terms: [] }, { direction: 'older', fromId: 1e12, limit: 100 }).then((m) => m.map((x) => x.id));

  it('keeps new rows in the inbox until enough messages arrive, then merges them by user', async () => {
    const { db, store, apply, add, count } = await setup(3);
    await apply(add(1, [10, 11]), add(2, [10]));
    expect([count('um_inbox'), count('um_user_messages')]).toEqual([3, 0]);
    await apply({ type: 'flags-changed', userId: 10, selector: { messageIds: [1] }, op: 'add', mask: F.starred });
    await apply(add(3, [11]));
    await store.compact(); // let the background merge finish
    expect([count('um_inbox'), count('um_user_messages'), count('um_inbox_messages')]).toEqual([0, 4, 0]);
    expect(await ids(store, 10)).toEqual([2, 1]);
    expect(await store.flagsFor(10, [1, 2])).toEqual(new Map([[1, F.starred], [2, 0]]));
    db.close();
  });

  it('answers the same while a merge is under way', async () => {
    const { db, store, apply, add } = await setup(1000);
    const users = Array.from({ length: 300_000 / 2 }, (_, i) => i + 1);
    await apply(add(1, users), add(2, users));
    const before = [await ids(store, 7), (await store.unreadCounts(7)).total];
    const merging = store.compact();
    await new Promise((r) => setImmediate(r)); // one merge step done, others pending
    expect([await ids(store, 7), (await store.unreadCounts(7)).total]).toEqual(before);
    await merging;
    expect([await ids(store, 7), (await store.unreadCounts(7)).total]).toEqual(before);
    db.close();
  }, 30_000);
});

/**
 * Issue 23 (P8): reads of one kind of row (unread, starred, mentioned, direct) read the partial
 * index of that kind, not every row of the user: SQLite's planner, without statistics, would
 * take the primary key (all of a user's history) instead.
 */
describe('SqliteUserMessageStore reads by partial index', () => {
  const setup = async () => {
    const db = openSqlite(':memory:');
    const store = new SqliteUserMessageStore(db, { compactAtMessages: 1_000_000 });
    await store.prepare();
    let position = 0n;
    const message = (id: number, dmKey: string | null) =>
      ({ id, realmId: 1, senderId: 11, streamId: dmKey ? null : 5, topic: dmKey ? null : 't', dmKey, hasLink: false, hasImage: false, hasAttachment: false, searchText: '' });
    const changes: UserMessageChange[] = [];
    for (let id = 1; id <= 200; id++) changes.push({ type: 'message-added', message: message(id, null), rows: [{ userId: 10, flags: F.read }, { userId: 11, flags: F.read }] });
    changes.push({ type: 'message-added', message: message(201, '10,11'), rows: [{ userId: 10, flags: F.is_private }, { userId: 11, flags: F.is_private | F.read }] });
    changes.push({ type: 'message-added', message: message(202, null), rows: [{ userId: 10, flags: F.mentioned }] });
    changes.push({ type: 'flags-changed', userId: 10, selector: { messageIds: [7] }, op: 'add', mask: F.starred });
    await store.apply([{ position: ++position, changes }], { name: 'um', position });
    await store.compact();
    const sql: string[] = [];
    const prepare = db.prepare.bind(db);
    jest.spyOn(db, 'prepare').mockImplementation((source: string) => {
      sql.push(source);
      return prepare(source);
    });
    /** The query plans of the main-table statements prepared while `read` ran. */
    const plansOf = async (read: () => Promise<unknown>) => {
      sql.length = 0;
      const result = await read();
      const plan = (s: string) => prepare(`EXPLAIN QUERY PLAN ${s}`).all(...Array((s.match(/\?/g) ?? []).length).fill(1)) as { detail: string }[];
      const plans = sql.filter((s) => s.includes('um_user_messages')).map((s) => plan(s).map((r) => r.detail).join('; '));
      return { result, plans };
    };
    return { db, store, plansOf };
  };
  const older = { direction: 'older' as const, fromId: Number.MAX_SAFE_INTEGER, limit: 1000 };

  it('unread messages and counts read ix_um_unread', async () => {
    const { db, store, plansOf } = await setup();
    const unread = await plansOf(() => store.unreadMessages(10, 50_000));
    expect((unread.result as { id: number }[]).map((m) => m.id)).toEqual([201, 202]);
    expect(unread.plans).toEqual([expect.stringContaining('USING COVERING INDEX ix_um_unread')]);
    const counts = await plansOf(() => store.unreadCounts(10));
    expect((counts.result as { total: number }).total).toBe(2);
    expect(counts.plans.length).toBeGreaterThan(0);
    for (const plan of counts.plans) expect(plan).toContain('USING COVERING INDEX ix_um_unread');
    db.close();
  });

  it.each([
    ['is:starred', 'ix_um_starred', { kind: 'flags', mask: F.starred, set: 'all' }, [7]],
    ['is:unread', 'ix_um_unread', { kind: 'flags', mask: F.read, set: 'none' }, [202, 201]],
    ['is:mentioned', 'ix_um_mentioned', { kind: 'flags', mask: F.mentioned | F.stream_wildcard_mentioned | F.topic_wildcard_mentioned | F.group_mentioned, set: 'any' }, [202]],
    ['is:dm', 'ix_um_private', { kind: 'is-dm' }, [201]],
  ] as const)('a %s narrow reads %s', async (_, index, condition, expected) => {
    const { db, store, plansOf } = await setup();
    const found = await plansOf(() => store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [{ ...condition, negated: false }] }, older));
    expect((found.result as { id: number }[]).map((m) => m.id)).toEqual(expected);
    expect(found.plans).toEqual([expect.stringContaining(`USING COVERING INDEX ${index}`)]);
    db.close();
  });

  it('a negated one reads every row of the user, as before', async () => {
    const { db, store, plansOf } = await setup();
    const found = await plansOf(() => store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [{ kind: 'is-dm', negated: true }] }, { ...older, limit: 3 }));
    expect((found.result as { id: number }[]).map((m) => m.id)).toEqual([202, 200, 199]);
    expect(found.plans[0]).not.toContain('ix_um_private');
    db.close();
  });

  it.each([
    ['marking a channel read reads ix_um_unread', 'add', F.read, 'ix_um_unread', 2],
    ['unstarring everything reads ix_um_starred', 'remove', F.starred, 'ix_um_starred', 1],
  ] as const)('%s', async (_, op, mask, index, changed) => {
    const { db, store, plansOf } = await setup();
    const selector = op === 'add' ? { streamId: 5 } : {};
    const counted = await plansOf(() => store.countFlagChanges(10, selector, op, mask));
    expect(counted.result).toBe(op === 'add' ? 1 : changed); // message 202 (201 is a direct message)
    expect(counted.plans).toEqual([expect.stringContaining(`USING COVERING INDEX ${index}`)]);
    const applied = await plansOf(() => store.apply([{ position: 1_000n, changes: [{ type: 'flags-changed', userId: 10, selector, op, mask }] }], { name: 'um', position: 1_000n }));
    expect(applied.plans.filter((p) => p.includes(index)).length).toBeGreaterThan(0);
    const left = await store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [{ kind: 'flags', mask, set: op === 'add' ? 'none' : 'all', negated: false }] }, older);
    expect(left.map((m) => m.id)).toEqual(op === 'add' ? [201] : []); // the direct message is not in the channel
    expect((await store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [] }, older)).length).toBe(202); // no row lost or added
    db.close();
  });

  it('rebuilds partial indexes of the earlier layout (without the flags) at prepare', async () => {
    const db = openSqlite(':memory:');
    db.exec('CREATE TABLE um_user_messages (user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID');
    db.exec('CREATE INDEX ix_um_unread ON um_user_messages (user_id, message_id) WHERE (flags & 1) = 0');
    db.prepare('INSERT INTO um_user_messages VALUES (10, 1, 0), (10, 2, 1)').run();
    await new SqliteUserMessageStore(db).prepare();
    expect((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'ix_um_unread'").get() as { sql: string }).sql).toContain('(user_id, message_id, flags)');
    expect((await new SqliteUserMessageStore(db).unreadMessages(10, 10)).map((m) => m.id)).toEqual([]); // no um_messages row: the join finds none
    expect(db.prepare('SELECT message_id FROM um_user_messages INDEXED BY ix_um_unread WHERE user_id = 10 AND (flags & 1) = 0').all()).toEqual([{ message_id: 1 }]);
    db.close();
  });
});
