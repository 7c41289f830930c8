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
