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
