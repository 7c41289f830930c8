import type { FlagSelector, NarrowTerm, UserMessageChange } from '@app/application';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MESSAGE_FLAG_BITS as F } from '@app/domain';
import { openSqlite } from './sqlite';
import { SqliteUserMessageStore, type SqliteUserMessageStoreOptions } from './sqlite-user-message-store';

/**
 * The two levels of the embedded store: rows land in the inbox and move to the main table intact.
 * These suites look at the row tables, so every row is written (no implied recipients); the
 * implied layout has its own suite below.
 */
describe('SqliteUserMessageStore inbox and merge', () => {
  const setup = async (compactAtMessages: number, options: SqliteUserMessageStoreOptions = {}) => {
    const db = openSqlite(':memory:');
    const store = new SqliteUserMessageStore(db, { compactAtMessages, impliedRecipients: false, ...options });
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

  it('keeps new rows in the inbox until enough messages arrive, then merges them by user, read rows into the main table and unread ones into um_unread', async () => {
    const { db, store, apply, add, count } = await setup(3);
    await apply(add(1, [10, 11]), add(2, [10]));
    expect([count('um_inbox'), count('um_user_messages'), count('um_unread')]).toEqual([3, 0, 0]);
    await apply({ type: 'flags-changed', userId: 10, selector: { messageIds: [1] }, op: 'add', mask: F.starred });
    await apply({ type: 'flags-changed', userId: 11, selector: { messageIds: [1] }, op: 'add', mask: F.read });
    await apply(add(3, [11]));
    await store.compact(); // let the background merge finish
    expect([count('um_inbox'), count('um_user_messages'), count('um_unread'), count('um_inbox_messages')]).toEqual([0, 1, 3, 0]);
    expect(await ids(store, 10)).toEqual([2, 1]);
    expect(await ids(store, 11)).toEqual([3, 1]);
    expect(await store.flagsFor(10, [1, 2])).toEqual(new Map([[1, F.starred], [2, 0]]));
    expect(await store.flagsFor(11, [1, 3])).toEqual(new Map([[1, F.read], [3, 0]]));
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
    expect([count('um_inbox'), count('um_inbox_messages'), count('um_user_messages'), count('um_unread')]).toEqual([0, 0, 0, 5_000]);
    await apply(add(101, users), { type: 'flags-changed', userId: 7, selector: { messageIds: [50, 101] }, op: 'add', mask: F.read });
    expect([count('um_inbox'), count('um_user_messages'), count('um_unread')]).toEqual([50, 1, 4_999]);
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
    expect(count('um_inbox') + count('um_user_messages') + count('um_unread')).toBe(100_000);
    expect(await ids(store, 7)).toEqual(newest(2_000));
    expect((await store.unreadCounts(7)).total).toBe(2_000);
    await store.compact();
    expect([count('um_inbox'), count('um_inbox_messages'), count('um_user_messages'), count('um_unread')]).toEqual([0, 0, 0, 100_000]);
    expect(await ids(store, 7)).toEqual(newest(2_000));
    db.close();
  }, 30_000);

  it('drains a big inbox left by an older version in steps, without blocking the first apply, while reads stay correct', async () => {
    // Given a database whose inbox holds 2,000 messages x 50 users (an older version's catch-up),
    // user 7 having read the even messages.
    const db = openSqlite(':memory:');
    const old = new SqliteUserMessageStore(db, { compactAtMessages: 1_000_000, maxInboxMessages: 1_000_000, impliedRecipients: false });
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
    const store = new SqliteUserMessageStore(db, { mergeStepRows: 5_000, impliedRecipients: false });
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
    expect([count('um_inbox'), count('um_inbox_messages'), count('um_user_messages'), count('um_unread')]).toEqual([50, 1, 1_000, 99_000]);
    await store.compact();
    expect([count('um_inbox'), count('um_inbox_messages'), count('um_user_messages'), count('um_unread')]).toEqual([0, 0, 1_000, 99_050]);
    expect(await store.flagsFor(7, [2_000, 1_999])).toEqual(new Map([[2_000, F.read], [1_999, 0]]));
    await store.close();
    db.close();
  }, 60_000);
});

/**
 * Issue 23 (P8): reads of one kind of row (unread, starred, mentioned, direct) read the table or
 * partial index of that kind, not every row of the user: SQLite's planner, without statistics,
 * would take the primary key (all of a user's history) instead. Unread rows are a table of their
 * own (um_unread), read rows the main table; starred, mentioned and direct rows have a partial
 * index on each.
 */
describe('SqliteUserMessageStore reads by table and partial index', () => {
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
    changes.push({ type: 'flags-changed', userId: 10, selector: { messageIds: [7, 202] }, op: 'add', mask: F.starred });
    await store.apply([{ position: ++position, changes }], { name: 'um', position });
    await store.compact();
    const sql: string[] = [];
    const prepare = db.prepare.bind(db);
    jest.spyOn(db, 'prepare').mockImplementation((source: string) => {
      sql.push(source);
      return prepare(source);
    });
    /** The query plans of the row-table statements prepared while `read` ran, and the tables they name. */
    const plansOf = async (read: () => Promise<unknown>) => {
      sql.length = 0;
      const result = await read();
      const plan = (s: string) => prepare(`EXPLAIN QUERY PLAN ${s}`).all(...Array((s.match(/\?/g) ?? []).length).fill(1)) as { detail: string }[];
      const rowStatements = sql.filter((s) => /um_user_messages|um_unread/.test(s));
      const plans = rowStatements.map((s) => plan(s).map((r) => r.detail).join('; '));
      return { result, plans, statements: rowStatements };
    };
    return { db, store, plansOf };
  };
  const older = { direction: 'older' as const, fromId: Number.MAX_SAFE_INTEGER, limit: 1000 };

  it('unread messages and counts read um_unread by its key, never the main table', async () => {
    const { db, store, plansOf } = await setup();
    const unread = await plansOf(() => store.unreadMessages(10, 50_000));
    expect((unread.result as { id: number }[]).map((m) => m.id)).toEqual([201, 202]);
    expect(unread.plans).toEqual([expect.stringContaining('SEARCH um USING PRIMARY KEY (user_id=?)')]);
    const counts = await plansOf(() => store.unreadCounts(10));
    expect(counts.result).toMatchObject({ total: 2, mentioned: 1 });
    expect(counts.plans.length).toBeGreaterThan(0);
    for (const plan of counts.plans) expect(plan).toContain('SEARCH um_unread USING PRIMARY KEY (user_id=?)');
    // From the unread rows to their messages, never the other way (a read of every channel message).
    for (const plan of counts.plans) expect(plan).not.toMatch(/ix_um_messages_stream|SCAN m\b/);
    for (const statement of [...unread.statements, ...counts.statements]) expect(statement).not.toContain('um_user_messages');
    db.close();
  });

  it.each([
    ['is:starred', ['ix_um_starred', 'ix_um_unread_starred'], { kind: 'flags', mask: F.starred, set: 'all' }, [202, 7]],
    ['is:unread', ['PRIMARY KEY (user_id=? AND message_id<?)'], { kind: 'flags', mask: F.read, set: 'none' }, [202, 201]],
    ['is:mentioned', ['ix_um_mentioned', 'ix_um_unread_mentioned'], { kind: 'flags', mask: F.mentioned | F.stream_wildcard_mentioned | F.topic_wildcard_mentioned | F.group_mentioned, set: 'any' }, [202]],
    ['is:dm', ['ix_um_private', 'ix_um_unread_private'], { kind: 'is-dm' }, [201]],
    ['dm:10,11', ['ix_um_private', 'ix_um_unread_private'], { kind: 'dm', dmKey: '10,11' }, [201]],
    ['dm-including:11', ['ix_um_private', 'ix_um_unread_private'], { kind: 'dm-including', userId: 11 }, [201]],
  ] as const)('a %s narrow reads %s', async (_, reads, condition, expected) => {
    const { db, store, plansOf } = await setup();
    const found = await plansOf(() => store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [{ ...condition, negated: false }] }, older));
    expect((found.result as { id: number }[]).map((m) => m.id)).toEqual(expected);
    expect(found.plans).toEqual(reads.map((r) => expect.stringContaining(r.startsWith('ix_') ? `USING COVERING INDEX ${r}` : r)));
    if (condition.kind === 'flags' && condition.mask === F.read) expect(found.statements.join(' ')).not.toContain('um_user_messages');
    db.close();
  });

  it('a negated one reads every row of the user, as before', async () => {
    const { db, store, plansOf } = await setup();
    const found = await plansOf(() => store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [{ kind: 'is-dm', negated: true }] }, { ...older, limit: 3 }));
    expect((found.result as { id: number }[]).map((m) => m.id)).toEqual([202, 200, 199]);
    for (const plan of found.plans) expect(plan).not.toContain('ix_um_');
    db.close();
  });

  it('marking a channel read moves the unread rows (read by key) to the main table; unstarring everything reads both starred indexes', async () => {
    const { db, store, plansOf } = await setup();
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = 10`).get() as { n: number }).n;
    expect([count('um_user_messages'), count('um_unread')]).toEqual([200, 2]);
    const counted = await plansOf(() => store.countFlagChanges(10, { streamId: 5 }, 'add', F.read));
    expect(counted.result).toBe(1); // message 202 (201 is a direct message)
    expect(counted.plans).toEqual([expect.stringContaining('SEARCH um_unread USING PRIMARY KEY (user_id=?)')]);
    await store.apply([{ position: 1_000n, changes: [{ type: 'flags-changed', userId: 10, selector: { streamId: 5 }, op: 'add', mask: F.read }] }], { name: 'um', position: 1_000n });
    expect([count('um_user_messages'), count('um_unread')]).toEqual([201, 1]);
    expect(await store.flagsFor(10, [202])).toEqual(new Map([[202, F.read | F.mentioned | F.starred]]));

    const unstar = await plansOf(() => store.countFlagChanges(10, {}, 'remove', F.starred));
    expect(unstar.result).toBe(2);
    expect(unstar.plans).toEqual([expect.stringContaining('USING COVERING INDEX ix_um_starred'), expect.stringContaining('USING COVERING INDEX ix_um_unread_starred')]);
    const applied = await plansOf(() => store.apply([{ position: 1_001n, changes: [{ type: 'flags-changed', userId: 10, selector: {}, op: 'remove', mask: F.starred }] }], { name: 'um', position: 1_001n }));
    expect(applied.plans.filter((p) => p.includes('ix_um_starred')).length).toBeGreaterThan(0);
    expect(applied.plans.filter((p) => p.includes('ix_um_unread_starred')).length).toBeGreaterThan(0);
    expect(await store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [{ kind: 'flags', mask: F.starred, set: 'all', negated: false }] }, older)).toEqual([]);
    expect((await store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [] }, older)).length).toBe(202); // no row lost or added
    db.close();
  });
});

/** Rows move between the unread table and the main table when the read bit changes; no key is ever in two tables. */
describe('SqliteUserMessageStore moves between the row tables', () => {
  const message = (id: number, streamId: number | null, topic: string | null) =>
    ({ id, realmId: 1, senderId: 11, streamId, topic, dmKey: streamId === null ? '10,11' : null, hasLink: false, hasImage: false, hasAttachment: false, searchText: '' });
  /** Channel 5 topics a/b, channel 6 topic c, a direct message; messages 1-8 merged into the row tables, 9-10 in the inbox. */
  const setup = async () => {
    const db = openSqlite(':memory:');
    const store = new SqliteUserMessageStore(db, { compactAtMessages: 1_000_000, impliedRecipients: false });
    await store.prepare();
    let position = 0n;
    const apply = (...changes: UserMessageChange[]) => store.apply([{ position: ++position, changes }], { name: 'um', position });
    const places: [number | null, string | null][] = [[5, 'a'], [5, 'b'], [6, 'c'], [null, null], [5, 'a'], [5, 'b'], [6, 'c'], [5, 'A'], [5, 'a'], [6, 'c']];
    const add = (id: number): UserMessageChange => ({
      type: 'message-added',
      message: message(id, ...places[id - 1]),
      rows: [{ userId: 10, flags: (id % 3 === 0 ? F.read : 0) | (places[id - 1][0] === null ? F.is_private : 0) | (id === 5 ? F.starred : 0) }, { userId: 11, flags: F.read }],
    });
    await apply(...[1, 2, 3, 4, 5, 6, 7, 8].map(add));
    await store.compact();
    await apply(add(9), add(10));
    const rows = (table: string) => (db.prepare(`SELECT message_id AS id, flags FROM ${table} WHERE user_id = 10 ORDER BY message_id`).all() as { id: number; flags: number }[]).map((r) => [r.id, r.flags]);
    /** The invariant: main-table rows are read, unread-table rows unread, and no key in two tables. */
    const invariant = () => {
      const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      expect(one('SELECT count(*) AS n FROM um_user_messages WHERE (flags & 1) = 0')).toBe(0);
      expect(one('SELECT count(*) AS n FROM um_unread WHERE (flags & 1) != 0')).toBe(0);
      expect(one('SELECT count(*) AS n FROM um_user_messages a JOIN um_unread b ON a.user_id = b.user_id AND a.message_id = b.message_id')).toBe(0);
      expect(one('SELECT count(*) AS n FROM um_inbox i WHERE EXISTS (SELECT 1 FROM um_user_messages a WHERE a.user_id = i.user_id AND a.message_id = i.message_id) OR EXISTS (SELECT 1 FROM um_unread b WHERE b.user_id = i.user_id AND b.message_id = i.message_id)')).toBe(0);
    };
    const unreadIds = async () => (await store.unreadMessages(10, 100)).map((m) => m.id);
    return { db, store, apply, rows, invariant, unreadIds };
  };
  const change = (selector: FlagSelector, op: 'add' | 'remove', mask: number = F.read): UserMessageChange => ({ type: 'flags-changed', userId: 10, selector, op, mask });

  it('starts with read rows in the main table, unread ones in um_unread, the newest in the inbox', async () => {
    const { db, rows, invariant, unreadIds } = await setup();
    expect(rows('um_user_messages')).toEqual([[3, F.read], [6, F.read]]);
    expect(rows('um_unread')).toEqual([[1, 0], [2, 0], [4, F.is_private], [5, F.starred], [7, 0], [8, 0]]);
    expect(rows('um_inbox')).toEqual([[9, F.read], [10, 0]]);
    expect(await unreadIds()).toEqual([1, 2, 4, 5, 7, 8, 10]);
    invariant();
    db.close();
  });

  it.each([
    ['a channel', { streamId: 5 }, [1, 2, 5, 6, 8, 9]],
    ['a topic', { streamId: 5, topic: 'a' }, [1, 5, 8, 9]],
    ['ids', { messageIds: [2, 3, 7, 10] }, [2, 3, 7, 10]],
    ['a direct conversation', { dmKey: '10,11' }, [4]],
    ['an id range', { minId: 5, maxId: 9 }, [5, 6, 7, 8, 9]],
    ['everything', {}, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
  ] as [string, FlagSelector, number[]][])('marks %s read and unread again, moving rows both ways', async (_, selector, selected) => {
    const { db, store, apply, rows, invariant, unreadIds } = await setup();
    const unreadBefore = [1, 2, 4, 5, 7, 8, 10];
    const merged = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(await store.countFlagChanges(10, selector, 'add', F.read)).toBe(selected.filter((id) => unreadBefore.includes(id)).length);
    await apply(change(selector, 'add'));
    expect(await unreadIds()).toEqual(unreadBefore.filter((id) => !selected.includes(id)));
    expect(rows('um_unread').map(([id]) => id)).toEqual(merged.filter((id) => unreadBefore.includes(id) && !selected.includes(id)));
    expect(rows('um_user_messages').map(([id]) => id)).toEqual(merged.filter((id) => !unreadBefore.includes(id) || selected.includes(id)));
    expect(await store.countFlagChanges(10, selector, 'add', F.read)).toBe(0);
    invariant();
    // Marking unread moves every selected row back, the ones read before too.
    expect(await store.countFlagChanges(10, selector, 'remove', F.read)).toBe(selected.length);
    await apply(change(selector, 'remove'));
    expect(await unreadIds()).toEqual([...new Set([...unreadBefore, ...selected])].sort((a, b) => a - b));
    expect(rows('um_user_messages').map(([id]) => id)).toEqual([3, 6].filter((id) => !selected.includes(id)));
    expect(rows('um_unread').map(([id]) => id)).toEqual(merged.filter((id) => unreadBefore.includes(id) || selected.includes(id)));
    expect((await store.flagsFor(10, [4, 5]))).toEqual(new Map([[4, F.is_private], [5, F.starred]]));
    expect(await store.countFlagChanges(10, selector, 'remove', F.read)).toBe(0);
    invariant();
    db.close();
  });

  it('keeps every other flag through the moves, and applies a mask of several bits to both tables', async () => {
    const { db, store, apply, rows, invariant } = await setup();
    await apply(change({ messageIds: [3, 5, 7] }, 'add', F.read | F.collapsed));
    expect(rows('um_user_messages')).toEqual([[3, F.read | F.collapsed], [5, F.read | F.starred | F.collapsed], [6, F.read], [7, F.read | F.collapsed]]);
    await apply(change({ messageIds: [3, 5, 8] }, 'remove', F.read | F.collapsed));
    expect(rows('um_user_messages')).toEqual([[6, F.read], [7, F.read | F.collapsed]]);
    expect(rows('um_unread')).toEqual([[1, 0], [2, 0], [3, 0], [4, F.is_private], [5, F.starred], [8, 0]]);
    await apply(change({}, 'add', F.starred));
    expect((await store.flagsFor(10, [3, 6, 10]))).toEqual(new Map([[3, F.starred], [6, F.read | F.starred], [10, F.starred]]));
    invariant();
    db.close();
  });

  it('keeps the invariant through historical rows, moves between channels, edits, deletes and the merge', async () => {
    const { db, store, apply, rows, invariant } = await setup();
    // User 12 has no rows: historical ones (read) go to the main table; a move adds unread rows where none exist.
    await apply({ type: 'flags-changed', userId: 12, selector: { messageIds: [1, 9], createHistorical: [1, 9] }, op: 'add', mask: F.starred });
    expect(await store.flagsFor(12, [1, 9])).toEqual(new Map([[1, F.read | F.historical | F.starred], [9, F.read | F.historical | F.starred]]));
    await apply({ type: 'messages-moved', messageIds: [1, 2, 9], streamId: 7, topic: 'moved', removeRowsOf: [11], addRows: { userIds: [10, 12, 13], flags: 0 } });
    expect(await store.flagsFor(13, [1, 2, 9])).toEqual(new Map([[1, 0], [2, 0], [9, 0]]));
    expect(await store.flagsFor(10, [1, 2, 9])).toEqual(new Map([[1, 0], [2, 0], [9, F.read]])); // kept, not re-added
    await apply({ type: 'message-edited', messageId: 2, searchText: 'x', hasLink: false, hasImage: false, hasAttachment: false, mentionedUserIds: [10, 13], topicWildcardMentionedUserIds: [], streamWildcardMentioned: false });
    expect(await store.flagsFor(10, [2])).toEqual(new Map([[2, F.mentioned]]));
    await apply({ type: 'messages-deleted', messageIds: [3, 4] });
    expect(await store.flagsFor(10, [3, 4])).toEqual(new Map());
    invariant();
    await store.compact();
    invariant();
    expect(rows('um_inbox')).toEqual([]);
    expect(rows('um_user_messages')).toEqual([[6, F.read], [9, F.read]]);
    expect(rows('um_unread')).toEqual([[1, 0], [2, F.mentioned], [5, F.starred], [7, 0], [8, 0], [10, 0]]);
    expect((await store.unreadCounts(13)).total).toBe(3);
    db.close();
  });

  it('answers filtered narrows over both tables in windows of ids as one table would, in both directions', async () => {
    // 12,000 messages (three windows of ids and more): user 10 has read the channel-5 messages and
    // not the channel-6 ones; sender 12 wrote every seventh message.
    const db = openSqlite(':memory:');
    const store = new SqliteUserMessageStore(db, { directAtMessages: 1 });
    await store.prepare();
    const changes: UserMessageChange[] = [];
    const channel = (id: number) => (id % 5 === 0 ? 6 : 5);
    for (let id = 1; id <= 12_000; id++) {
      changes.push({
        type: 'message-added',
        message: { ...message(id, channel(id), 't'), senderId: id % 7 === 0 ? 12 : 11 },
        rows: [{ userId: 10, flags: channel(id) === 5 ? F.read : 0 }],
      });
    }
    await store.apply([{ position: 1n, changes }], { name: 'um', position: 1n });
    const all = Array.from({ length: 12_000 }, (_, i) => i + 1);
    const cases: [NarrowTerm[], (id: number) => boolean][] = [
      [[{ kind: 'sender', userId: 12, negated: false }], (id) => id % 7 === 0],
      [[{ kind: 'stream', streamId: 6, negated: false }], (id) => channel(id) === 6],
      [[{ kind: 'stream', streamId: 6, negated: false }, { kind: 'sender', userId: 12, negated: false }], (id) => channel(id) === 6 && id % 7 === 0],
      [[{ kind: 'id', id: 4_321, negated: false }], (id) => id === 4_321],
      [[{ kind: 'sender', userId: 404, negated: false }], () => false],
    ];
    for (const [terms, matches] of cases) {
      for (const [direction, fromId, limit] of [['older', 1e12, 100], ['older', 6_000, 1_000], ['newer', 0, 100], ['newer', 9_000, 5_000], ['older', 3, 10]] as const) {
        const found = (await store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms }, { direction, fromId, limit })).map((m) => m.id);
        const expected = (direction === 'older' ? [...all].reverse().filter((id) => id <= fromId) : all.filter((id) => id >= fromId)).filter(matches).slice(0, limit);
        expect([JSON.stringify(terms), direction, fromId, found]).toEqual([JSON.stringify(terms), direction, fromId, expected]);
      }
    }
    db.close();
  }, 30_000);
});

/** prepare() moves the unread rows of the layout before issue #23's (every row in the main table) to um_unread, once. */
describe('SqliteUserMessageStore migration of the one-table layout', () => {
  /** A database as the one-table layout left it: rows in the main table (read and unread), the inbox, ix_um_unread. */
  const oldLayout = (db: ReturnType<typeof openSqlite>, unreadIndex: string) => {
    db.exec(`
      CREATE TABLE checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL);
      CREATE TABLE um_messages (id INTEGER PRIMARY KEY, realm_id INTEGER NOT NULL, sender_id INTEGER NOT NULL, stream_id INTEGER, topic TEXT, topic_key TEXT, dm_key TEXT, attrs INTEGER NOT NULL, search TEXT NOT NULL);
      CREATE TABLE um_user_messages (user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID;
      CREATE TABLE um_inbox (message_id INTEGER NOT NULL, user_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (message_id, user_id)) WITHOUT ROWID;
      CREATE TABLE um_inbox_messages (message_id INTEGER PRIMARY KEY);
      CREATE INDEX ix_um_unread ON um_user_messages ${unreadIndex} WHERE (flags & 1) = 0;
      CREATE INDEX ix_um_starred ON um_user_messages (user_id, message_id, flags) WHERE (flags & 2) != 0;
    `);
    const add = db.prepare("INSERT INTO um_messages VALUES (?, 1, 11, 5, 't', 't', NULL, 0, '')");
    for (let id = 1; id <= 6; id++) add.run(id);
    db.exec(`
      INSERT INTO um_user_messages VALUES (10, 1, 1), (10, 2, 0), (10, 3, 2), (10, 4, 3), (11, 1, 0), (11, 2, 1);
      INSERT INTO um_inbox VALUES (5, 10, 0), (5, 11, 1), (6, 10, 1);
      INSERT INTO um_inbox_messages VALUES (5), (6);
      INSERT INTO checkpoints VALUES ('um', '9');
    `);
  };
  const rows = (db: ReturnType<typeof openSqlite>, table: string) => db.prepare(`SELECT user_id, message_id, flags FROM ${table} ORDER BY user_id, message_id`).raw().all();
  const state = async (store: SqliteUserMessageStore) => [
    await store.flagsFor(10, [1, 2, 3, 4, 5, 6]),
    (await store.findMessages({ realmId: 1, userId: 10, scope: 'user', terms: [] }, { direction: 'older', fromId: 1e12, limit: 10 })).map((m) => m.id),
    (await store.unreadMessages(10, 10)).map((m) => m.id),
    (await store.unreadCounts(11)).total,
  ];

  it.each([
    ['with the flags (covering)', '(user_id, message_id, flags)'],
    ['of the earlier layout, without the flags', '(user_id, message_id)'],
  ])('moves the unread rows out of the main table and drops ix_um_unread %s, once', async (_, unreadIndex) => {
    const db = openSqlite(':memory:');
    oldLayout(db, unreadIndex);
    const store = new SqliteUserMessageStore(db, { compactSynchronously: true });
    await store.prepare();
    expect(rows(db, 'um_user_messages')).toEqual([[10, 1, 1], [10, 4, 3], [11, 2, 1]]);
    expect(rows(db, 'um_unread')).toEqual([[10, 2, 0], [10, 3, 2], [11, 1, 0]]);
    expect(rows(db, 'um_inbox')).toEqual([[10, 5, 0], [10, 6, 1], [11, 5, 1]]); // the merge splits them later
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'ix_um_unread'").all()).toEqual([]);
    const expected = [new Map([[1, 1], [2, 0], [3, 2], [4, 3], [5, 0], [6, 1]]), [6, 5, 4, 3, 2, 1], [2, 3, 5], 1];
    expect(await state(store)).toEqual(expected);
    // Idempotent: a second prepare (another process, a restart) finds nothing to move.
    await new SqliteUserMessageStore(db, { compactSynchronously: true }).prepare();
    expect(rows(db, 'um_unread')).toEqual([[10, 2, 0], [10, 3, 2], [11, 1, 0]]);
    expect(await state(store)).toEqual(expected);
    expect(await store.getCheckpoint('um')).toBe(9n);
    db.close();
  });

  it('migrates once when two processes prepare the same file at the same time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-migrate-'));
    try {
      const file = join(dir, 'read-models.sqlite');
      const first = openSqlite(file);
      oldLayout(first, '(user_id, message_id, flags)');
      const second = openSqlite(file);
      const stores = [new SqliteUserMessageStore(first, { compactSynchronously: true }), new SqliteUserMessageStore(second, { compactSynchronously: true })];
      await Promise.all(stores.map((s) => s.prepare()));
      expect(rows(second, 'um_user_messages')).toEqual([[10, 1, 1], [10, 4, 3], [11, 2, 1]]);
      expect(rows(second, 'um_unread')).toEqual([[10, 2, 0], [10, 3, 2], [11, 1, 0]]);
      expect(await state(stores[1])).toEqual(await state(stores[0]));
      first.close();
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Implied recipients (sqlite-implied-recipients.ts): a channel message's rows that carry only the
 * read state are implied by membership intervals and a watermark; only rows with flags are written.
 */
describe('SqliteUserMessageStore implied recipients', () => {
  const HAMLET = 10;
  const CORDELIA = 11;
  const IAGO = 12;
  const setup = async (db = openSqlite(':memory:')) => {
    const store = new SqliteUserMessageStore(db, { compactSynchronously: true, compactAtMessages: 1 });
    await store.prepare();
    /** At the next position after the stored checkpoint (another connection may have moved it). */
    const apply = async (...changes: UserMessageChange[]) => {
      const position = ((await store.getCheckpoint('um')) ?? 0n) + 1n;
      await store.apply([{ position, changes }], { name: 'um', position });
    };
    /** A channel message from Iago (read for him) to `users` (no flags unless given). */
    const send = (id: number, users: number[], { streamId = 5, topic = 't', flags = {} as Record<number, number> } = {}): UserMessageChange => ({
      type: 'message-added',
      message: { id, realmId: 1, senderId: IAGO, streamId, topic, dmKey: null, hasLink: false, hasImage: false, hasAttachment: false, searchText: `m${id}` },
      rows: [...users, IAGO].map((userId) => ({ userId, flags: userId === IAGO ? F.read : (flags[userId] ?? 0) })),
    });
    const read = (userId: number, selector: FlagSelector, op: 'add' | 'remove' = 'add', mask: number = F.read): UserMessageChange => ({ type: 'flags-changed', userId, selector, op, mask });
    type Row = (number | null)[];
    const explicitRows = () =>
      db.prepare('SELECT user_id, message_id, flags FROM (SELECT * FROM um_user_messages UNION ALL SELECT * FROM um_unread UNION ALL SELECT user_id, message_id, flags FROM um_inbox) ORDER BY user_id, message_id').raw().all() as Row[];
    const intervals = () => db.prepare('SELECT user_id, stream_id, from_id, to_id FROM um_members ORDER BY user_id, stream_id, from_id').raw().all() as Row[];
    const watermarks = () => db.prepare('SELECT user_id, stream_id, read_to FROM um_read_to ORDER BY user_id, stream_id').raw().all() as Row[];
    const unread = async (userId: number) => (await store.unreadMessages(userId, 100)).map((m) => m.id);
    return { db, store, apply, send, read, explicitRows, intervals, watermarks, unread };
  };

  it('writes only the rows with flags; the recipients without are open members of the channel from the message on', async () => {
    const { store, apply, send, explicitRows, intervals } = await setup();
    await apply(send(1, [HAMLET, CORDELIA], { flags: { [CORDELIA]: F.mentioned } }), send(2, [HAMLET, CORDELIA]));
    expect(explicitRows()).toEqual([[CORDELIA, 1, F.mentioned], [IAGO, 1, F.read], [IAGO, 2, F.read]]);
    // Cordelia had a flag on message 1, so she joins the members at message 2; Iago, always read, never does.
    expect(intervals()).toEqual([[HAMLET, 5, 1, null], [CORDELIA, 5, 2, null]]);
    expect(await store.flagsFor(HAMLET, [1, 2])).toEqual(new Map([[1, 0], [2, 0]]));
    expect(await store.flagsFor(CORDELIA, [1, 2])).toEqual(new Map([[1, F.mentioned], [2, 0]]));
    expect(await store.unreadCounts(HAMLET)).toEqual({ topics: [{ streamId: 5, topic: 't', count: 2 }], conversations: [], mentioned: 0, total: 2 });
    expect(await store.usersWithFlags(2, [HAMLET, CORDELIA, IAGO], F.read)).toEqual([IAGO]);
  });

  it('ends a membership at the first message that does not reach the user and starts a new one when one does again', async () => {
    const { store, apply, send, intervals } = await setup();
    await apply(send(1, [HAMLET, CORDELIA]), send(2, [HAMLET]), send(3, [HAMLET]), send(4, [HAMLET, CORDELIA]));
    expect(intervals()).toEqual([[HAMLET, 5, 1, null], [CORDELIA, 5, 1, 2], [CORDELIA, 5, 4, null]]);
    expect(await store.flagsFor(CORDELIA, [1, 2, 3, 4])).toEqual(new Map([[1, 0], [4, 0]]));
    const history = await store.findMessages({ realmId: 1, userId: CORDELIA, scope: 'history', terms: [{ kind: 'stream', streamId: 5, negated: false }] }, { direction: 'newer', fromId: 0, limit: 10 });
    expect(history).toEqual([{ id: 1, flags: 0 }, { id: 2, flags: null }, { id: 3, flags: null }, { id: 4, flags: 0 }]);
    expect(await store.maxMessageId(1, CORDELIA)).toBe(4);
    expect(await store.topicsOf(1, 5, CORDELIA)).toEqual([{ topic: 't', maxId: 4 }]);
  });

  it('writes every row of a message whose id is below the channel\'s newest implied one (ids out of order), leaving the intervals alone', async () => {
    const { store, apply, send, explicitRows, intervals, db } = await setup();
    await apply(send(5, [HAMLET, CORDELIA]), send(4, [HAMLET]));
    expect(intervals()).toEqual([[HAMLET, 5, 5, null], [CORDELIA, 5, 5, null]]);
    expect(explicitRows()).toEqual([[HAMLET, 4, 0], [IAGO, 4, F.read], [IAGO, 5, F.read]]);
    expect(db.prepare('SELECT id, implied FROM um_messages ORDER BY id').raw().all()).toEqual([[4, 0], [5, 1]]);
    expect(await store.flagsFor(CORDELIA, [4, 5])).toEqual(new Map([[5, 0]]));
  });

  it('after a restart, keeps treating ids below a bound of an interval as out of order, even when the message that set it was deleted', async () => {
    const first = await setup();
    await first.apply(first.send(10, [HAMLET, CORDELIA]), first.send(20, [HAMLET]), { type: 'messages-deleted', messageIds: [20] });
    // A new instance on the same database (a restart): the channel's state is derived, not cached.
    const second = await setup(first.db);
    await second.apply(second.send(15, [HAMLET, CORDELIA]), second.send(30, [HAMLET]));
    expect(second.intervals()).toEqual([[HAMLET, 5, 10, null], [CORDELIA, 5, 10, 20]]);
    const cordelia = await second.store.findMessages({ realmId: 1, userId: CORDELIA, scope: 'user', terms: [] }, { direction: 'newer', fromId: 0, limit: 10 });
    expect(cordelia.map((m) => m.id)).toEqual([10, 15]);
    expect(await second.unread(CORDELIA)).toEqual([10, 15]);
  });

  it('marks a channel (or everything) read by moving the watermark, writing no row', async () => {
    const { store, apply, send, read, explicitRows, watermarks, unread } = await setup();
    await apply(send(1, [HAMLET]), send(2, [HAMLET]), send(3, [HAMLET], { streamId: 6 }));
    expect(await store.countFlagChanges(HAMLET, { streamId: 5 }, 'add', F.read)).toBe(2);
    await apply(read(HAMLET, { streamId: 5 }));
    expect(watermarks()).toEqual([[HAMLET, 5, 2]]);
    expect(explicitRows().filter(([user]) => user === HAMLET)).toEqual([]);
    expect(await unread(HAMLET)).toEqual([3]);
    await apply(send(4, [HAMLET]), read(HAMLET, {}));
    expect(watermarks()).toEqual([[HAMLET, 5, 4], [HAMLET, 6, 3]]);
    expect(await unread(HAMLET)).toEqual([]);
    // Marking unread again writes the rows it changes, as unread exceptions below the watermark.
    await apply(read(HAMLET, { streamId: 5, topic: 'T' }, 'remove'));
    expect(explicitRows().filter(([user]) => user === HAMLET)).toEqual([[HAMLET, 1, 0], [HAMLET, 2, 0], [HAMLET, 4, 0]]);
    expect(await unread(HAMLET)).toEqual([1, 2, 4]);
  });

  it('marks ids read, then moves the watermark past them, an older unread message keeping an explicit unread row', async () => {
    const { store, apply, send, read, explicitRows, watermarks, unread } = await setup();
    await apply(send(1, [HAMLET]), send(2, [HAMLET]), send(3, [HAMLET]));
    await apply(read(HAMLET, { messageIds: [2, 3] }));
    expect(watermarks()).toEqual([[HAMLET, 5, 3]]);
    expect(explicitRows().filter(([user]) => user === HAMLET)).toEqual([[HAMLET, 1, 0]]);
    expect(await unread(HAMLET)).toEqual([1]);
    expect(await store.flagsFor(HAMLET, [1, 2, 3])).toEqual(new Map([[1, 0], [2, F.read], [3, F.read]]));
    await apply(read(HAMLET, { messageIds: [1] }));
    expect(explicitRows().filter(([user]) => user === HAMLET)).toEqual([[HAMLET, 1, F.read]]);
    expect(await unread(HAMLET)).toEqual([]);
    // Starring writes the row out with both flags.
    await apply(read(HAMLET, { messageIds: [2] }, 'add', F.starred));
    expect(await store.flagsFor(HAMLET, [2])).toEqual(new Map([[2, F.read | F.starred]]));
    expect(await store.findMessages({ realmId: 1, userId: HAMLET, scope: 'user', terms: [{ kind: 'flags', mask: F.starred, set: 'any', negated: false }] }, { direction: 'older', fromId: 100, limit: 10 }))
      .toEqual([{ id: 2, flags: F.read | F.starred }]);
  });

  it('moves the watermark only past the ids the selector marked', async () => {
    const { store, apply, send, read, watermarks, unread } = await setup();
    await apply(send(1, [HAMLET], { topic: 'a' }), send(2, [HAMLET], { topic: 'b' }), send(3, [HAMLET], { topic: 'a' }));
    await apply(read(HAMLET, { messageIds: [1, 2], topic: 'A' }));
    expect(watermarks()).toEqual([[HAMLET, 5, 1]]);
    expect(await unread(HAMLET)).toEqual([2, 3]);
    expect(await store.flagsFor(HAMLET, [1, 2, 3])).toEqual(new Map([[1, F.read], [2, 0], [3, 0]]));
  });

  it('writes a message\'s implied rows out when it moves to another channel, and it stops being implied', async () => {
    const { db, store, apply, send, read } = await setup();
    await apply(send(1, [HAMLET, CORDELIA]), read(CORDELIA, { streamId: 5 }));
    await apply({ type: 'messages-moved', messageIds: [1], streamId: 6, topic: 'moved', removeRowsOf: [HAMLET] });
    expect(db.prepare('SELECT implied FROM um_messages WHERE id = 1').pluck().get()).toBe(0);
    expect(await store.flagsFor(HAMLET, [1])).toEqual(new Map());
    expect(await store.flagsFor(CORDELIA, [1])).toEqual(new Map([[1, F.read]]));
    // A move inside the channel leaves the rows implied.
    await apply(send(2, [HAMLET]), { type: 'messages-moved', messageIds: [2], streamId: 5, topic: 'renamed' });
    expect(db.prepare('SELECT implied FROM um_messages WHERE id = 2').pluck().get()).toBe(1);
    expect(await store.unreadCounts(HAMLET)).toMatchObject({ topics: [{ streamId: 5, topic: 'renamed', count: 1 }], total: 1 });
  });

  it('writes out the row of a user an edit mentions, and every row for a channel wildcard', async () => {
    const { store, apply, send, explicitRows } = await setup();
    await apply(send(1, [HAMLET, CORDELIA]));
    const edit = (mentioned: number[], wildcard: boolean): UserMessageChange => ({
      type: 'message-edited', messageId: 1, searchText: 'x', hasLink: false, hasImage: false, hasAttachment: false,
      mentionedUserIds: mentioned, streamWildcardMentioned: wildcard, topicWildcardMentionedUserIds: [],
    });
    await apply(edit([HAMLET], false));
    expect(explicitRows()).toEqual([[HAMLET, 1, F.mentioned], [IAGO, 1, F.read]]);
    await apply(edit([], true));
    expect(await store.flagsFor(CORDELIA, [1])).toEqual(new Map([[1, F.stream_wildcard_mentioned]]));
    expect(await store.flagsFor(HAMLET, [1])).toEqual(new Map([[1, F.stream_wildcard_mentioned]]));
  });

  it('creates no historical row for a user who is an implied recipient', async () => {
    const { store, apply, send, read } = await setup();
    await apply(send(1, [HAMLET]), read(HAMLET, { messageIds: [1], createHistorical: [1] }));
    expect(await store.flagsFor(HAMLET, [1])).toEqual(new Map([[1, F.read]]));
  });

  it('reloads the open members after another connection committed, and after a failed apply', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-implied-'));
    try {
      const file = join(dir, 'read-models.sqlite');
      const first = await setup(openSqlite(file));
      await first.apply(first.send(1, [HAMLET, CORDELIA]));
      const second = await setup(openSqlite(file));
      await second.apply(second.send(2, [HAMLET]));
      // The first connection's cache still has Cordelia as a member; SQLite's data_version tells it otherwise.
      await first.apply(first.send(3, [HAMLET, CORDELIA]));
      expect(await first.store.flagsFor(CORDELIA, [1, 2, 3])).toEqual(new Map([[1, 0], [3, 0]]));
      // A batch that fails half-way (a message without its text) rolls back the intervals it moved, and the cache with them.
      const sent = first.send(5, [HAMLET]) as Extract<UserMessageChange, { type: 'message-added' }>;
      const broken = { ...sent, message: { ...sent.message, searchText: undefined as unknown as string } };
      await expect(first.store.apply([{ position: 100n, changes: [first.send(4, [HAMLET]), broken] }], { name: 'um', position: 100n })).rejects.toThrow();
      await first.apply(first.send(6, [HAMLET, CORDELIA]));
      expect(await first.store.flagsFor(CORDELIA, [4, 6])).toEqual(new Map([[6, 0]]));
      expect(first.intervals()).toEqual([[HAMLET, 5, 1, null], [CORDELIA, 5, 1, 2], [CORDELIA, 5, 3, null]]);
      first.db.close();
      second.db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
