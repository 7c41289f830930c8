import type { UserMessageChange } from '@app/application';
import { MESSAGE_FLAG_BITS as F } from '@app/domain';
import { openSqlite } from './sqlite';
import { SqliteUserMessageStore, type SqliteUserMessageStoreOptions } from './sqlite-user-message-store';

/** The two levels of the embedded store: rows land in the inbox and move to the main table intact. */
describe('SqliteUserMessageStore inbox and merge', () => {
  const setup = async (compactAtMessages: number, options: SqliteUserMessageStoreOptions = {}) => {
    const db = openSqlite(':memory:');
    const store = new SqliteUserMessageStore(db, { compactAtMessages, ...options });
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

  const users = Array.from({ length: 50 }, (_, i) => i + 1);
  const newest = (from: number) => Array.from({ length: 100 }, (_, i) => from - i);

  it('writes a catch-up batch (directAtMessages messages or more) straight into the main table', async () => {
    const { db, store, apply, add, count } = await setup(256, { directAtMessages: 100 });
    await apply(...Array.from({ length: 100 }, (_, i) => add(i + 1, users)));
    expect([count('um_inbox'), count('um_inbox_messages'), count('um_user_messages')]).toEqual([0, 0, 5_000]);
    await apply(add(101, users), { type: 'flags-changed', userId: 7, selector: { messageIds: [50, 101] }, op: 'add', mask: F.read });
    expect([count('um_inbox'), count('um_user_messages')]).toEqual([50, 5_000]);
    expect(await ids(store, 7)).toEqual(newest(101));
    expect((await store.unreadCounts(7)).total).toBe(99);
    db.close();
  });

  it('answers the same whether a batch mixing sends and other changes goes to the inbox or, as a catch-up, to the main table', async () => {
    // One batch: sends, then changes that read or change their rows before the batch ends (a flag
    // change of one user, a historical row, a move that removes and adds rows, an edit, a delete).
    const changes = (add: (id: number, users: number[]) => UserMessageChange): UserMessageChange[] => [
      add(1, [1, 2, 3]), add(2, [2, 3]), add(3, [1, 3]),
      { type: 'flags-changed', userId: 3, selector: { messageIds: [1, 2] }, op: 'add', mask: F.read },
      { type: 'flags-changed', userId: 2, selector: { messageIds: [3], createHistorical: [3] }, op: 'add', mask: F.read },
      add(4, [1, 2]),
      { type: 'messages-moved', messageIds: [4], streamId: 6, topic: 'u', removeRowsOf: [2], addRows: { userIds: [3], flags: F.read } },
      { type: 'message-edited', messageId: 1, searchText: 'x', hasLink: false, hasImage: false, hasAttachment: false, mentionedUserIds: [1], topicWildcardMentionedUserIds: [], streamWildcardMentioned: false },
      { type: 'messages-deleted', messageIds: [2] },
      add(5, [3, 1]),
      { type: 'flags-changed', userId: 1, selector: { messageIds: [5, 3] }, op: 'add', mask: F.starred },
    ];
    const state = async (store: SqliteUserMessageStore) => {
      const out: unknown[] = [];
      for (const user of [1, 2, 3]) out.push(await ids(store, user), [...(await store.flagsFor(user, [1, 2, 3, 4, 5]))].sort(), (await store.unreadCounts(user)).total);
      return out;
    };
    const viaInbox = await setup(256);
    const direct = await setup(256, { directAtMessages: 1 });
    await viaInbox.apply(...changes(viaInbox.add));
    await direct.apply(...changes(direct.add));
    expect([viaInbox.count('um_user_messages'), direct.count('um_inbox')]).toEqual([1, 1]);
    const expected = await state(viaInbox.store);
    expect(expected[0]).toEqual([5, 4, 3, 1]);
    expect(await state(direct.store)).toEqual(expected);
    viaInbox.db.close();
    direct.db.close();
  });

  it('keeps the inbox bounded through a catch-up of small batches that leaves the background merge no idle turn, and ends empty after the merges', async () => {
    // Batches of 20 messages (under directAtMessages), each awaited back to back as the projector
    // applies them: the background merge's later steps wait for an idle turn that never comes.
    const { db, store, add, count } = await setup(16, { maxInboxMessages: 100, mergeStepRows: 500 });
    let position = 0n;
    let largest = 0;
    for (let batch = 0; batch < 100; batch++) {
      const changes = Array.from({ length: 20 }, (_, i) => add(batch * 20 + i + 1, users));
      await store.apply([{ position: ++position, changes }], { name: 'um', position });
      largest = Math.max(largest, count('um_inbox_messages'));
    }
    // 2,000 messages x 50 rows: at most the bound plus one batch waits in the inbox.
    expect(largest).toBeLessThanOrEqual(100 + 20);
    expect(count('um_inbox') + count('um_user_messages')).toBe(100_000);
    expect(await ids(store, 7)).toEqual(newest(2_000));
    expect((await store.unreadCounts(7)).total).toBe(2_000);
    await store.compact();
    expect([count('um_inbox'), count('um_inbox_messages'), count('um_user_messages')]).toEqual([0, 0, 100_000]);
    expect(await ids(store, 7)).toEqual(newest(2_000));
    db.close();
  }, 30_000);

  it('drains a big inbox left by an older version in steps, without blocking the first apply, while reads stay correct', async () => {
    // Given a database whose inbox holds 2,000 messages x 50 users (an older version's catch-up),
    // user 7 having read the even messages.
    const db = openSqlite(':memory:');
    const old = new SqliteUserMessageStore(db, { compactAtMessages: 1_000_000, maxInboxMessages: 1_000_000 });
    await old.prepare();
    let position = 0n;
    for (let batch = 0; batch < 100; batch++) {
      const changes: UserMessageChange[] = Array.from({ length: 20 }, (_, i) => {
        const id = batch * 20 + i + 1;
        return {
          type: 'message-added',
          message: { id, realmId: 1, senderId: 1, streamId: 5, topic: 't', dmKey: null, hasLink: false, hasImage: false, hasAttachment: false, searchText: '' },
          rows: users.map((userId) => ({ userId, flags: userId === 7 && id % 2 === 0 ? F.read : 0 })),
        };
      });
      await old.apply([{ position: ++position, changes }], { name: 'um', position });
    }
    await old.close();
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect([count('um_inbox'), count('um_user_messages')]).toEqual([100_000, 0]);

    // When a store opens it (steps of 5,000 rows) and the projector applies a send at once.
    const store = new SqliteUserMessageStore(db, { mergeStepRows: 5_000 });
    await store.prepare();
    await store.apply([{ position: ++position, changes: [{ type: 'message-added', message: { id: 2_001, realmId: 1, senderId: 1, streamId: 5, topic: 't', dmKey: null, hasLink: false, hasImage: false, hasAttachment: false, searchText: '' }, rows: users.map((userId) => ({ userId, flags: 0 })) }] }], { name: 'um', position });

    // Then the first apply returned after a few steps (the background merge's first, its own),
    // not the whole merge; every turn after it moves one more step, and reads never change.
    const expected = [newest(2_001), 1_001, (await store.flagsFor(7, [2_000, 1_999])).size];
    expect(expected).toEqual([newest(2_001), 1_001, 2]);
    expect(count('um_inbox')).toBeGreaterThanOrEqual(100_000 + 50 - 3 * 5_050);
    let turns = 0;
    // (The new send, 50 rows, stays in the inbox: the merge goes up to the newest message it found.)
    for (let left = count('um_inbox'); left > 50 && turns < 1_000; left = count('um_inbox')) {
      await new Promise((r) => setImmediate(r));
      turns++;
      expect(count('um_inbox')).toBeGreaterThanOrEqual(left - 5_050);
      expect([await ids(store, 7), (await store.unreadCounts(7)).total, (await store.flagsFor(7, [2_000, 1_999])).size]).toEqual(expected);
    }
    expect(turns).toBeGreaterThanOrEqual(15);
    expect(turns).toBeLessThan(1_000);
    expect([count('um_inbox'), count('um_inbox_messages'), count('um_user_messages')]).toEqual([50, 1, 100_000]);
    await store.compact();
    expect([count('um_inbox'), count('um_inbox_messages'), count('um_user_messages')]).toEqual([0, 0, 100_050]);
    expect(await store.flagsFor(7, [2_000, 1_999])).toEqual(new Map([[2_000, F.read], [1_999, 0]]));
    await store.close();
    db.close();
  }, 60_000);
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
