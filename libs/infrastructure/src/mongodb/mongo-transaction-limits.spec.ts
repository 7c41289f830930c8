import type { Db, MongoClient } from 'mongodb';
import type { PositionedChanges } from '@app/application';
import { MongoNamespace } from './mongo-namespace';
import { MongoReadStore } from './mongo-read-store';
import { MongoUserMessageStore } from './mongo-user-message-store';

/**
 * The MongoDB adapters' transactions, against a stand-in for the driver that records which
 * operation ran in which transaction (no MongoDB server here; the contract suites run them on one).
 */
type Call = { tx: number; collection: string; op: string; n: number };
function fakeMongo() {
  const calls: Call[] = [];
  let tx = 0;
  const session = {
    withTransaction: async (fn: () => Promise<unknown>) => {
      tx++;
      await fn();
    },
  };
  const collection = (name: string) => ({
    bulkWrite: async (ops: unknown[]) => {
      calls.push({ tx, collection: name, op: 'bulkWrite', n: ops.length });
      return {};
    },
    updateOne: async () => {
      calls.push({ tx, collection: name, op: 'updateOne', n: 1 });
      return { upsertedCount: 1 };
    },
    findOne: async () => null,
    createIndex: async () => 'ix',
    indexes: async () => [{ name: '_id_' }],
    dropIndex: async () => undefined,
  });
  const db = {
    collection,
    listCollections: () => ({ toArray: async () => [{ name: 'exists' }] }),
    createCollection: async () => undefined,
  } as unknown as Db;
  const client = { withSession: async (fn: (s: typeof session) => Promise<unknown>) => fn(session) } as unknown as MongoClient;
  return { db, client, calls, transactions: () => tx };
}

describe('MongoDB transactions within MongoDB’s limits', () => {
  it('the read store commits a catch-up of 2,500 documents as transactions of at most 1,000, the checkpoint with the last', async () => {
    const mongo = fakeMongo();
    const store = await MongoReadStore.open(mongo.client, mongo.db, new MongoNamespace());
    await store.ensureCollection({ name: 'things', fields: [] });
    const ops = Array.from({ length: 2500 }, (_, i) => ({ type: 'put' as const, id: `t${i}`, doc: { i }, position: BigInt(i + 1) }));
    await store.commit({ writes: [{ collection: 'things', ops }], checkpoints: [{ name: 'things', position: 2500n }] });
    expect(mongo.transactions()).toBe(3);
    const documents = mongo.calls.filter((c) => c.collection === 'rm_things');
    expect(documents.map((c) => [c.tx, c.n])).toEqual([[1, 1000], [2, 1000], [3, 500]]);
    expect(mongo.calls.filter((c) => c.collection === '_checkpoints').map((c) => c.tx)).toEqual([3]);
  });

  it('a live batch stays one transaction', async () => {
    const mongo = fakeMongo();
    const store = await MongoReadStore.open(mongo.client, mongo.db, new MongoNamespace());
    await store.ensureCollection({ name: 'things', fields: [] });
    await store.commit({ writes: [{ collection: 'things', ops: [{ type: 'put', id: 'a', doc: {}, position: 1n }] }], checkpoints: [{ name: 'things', position: 1n }] });
    expect(mongo.transactions()).toBe(1);
  });

  it('the user-message store applies a 5,000-event batch in transactions of at most 1,000 documents, each with its checkpoint', async () => {
    const mongo = fakeMongo();
    const store = new MongoUserMessageStore(mongo.client, mongo.db);
    const batches: PositionedChanges[] = Array.from({ length: 5000 }, (_, i) => ({
      position: BigInt(i + 1),
      changes: [
        {
          type: 'message-added',
          message: { id: i + 1, realmId: 1, senderId: 1, streamId: 1, topic: 't', dmKey: null, searchText: 'x', hasLink: false, hasImage: false, hasAttachment: false },
          rows: Array.from({ length: 4 }, (_, u) => ({ userId: u + 1, flags: 0 })),
        },
      ],
    }));
    await store.apply(batches, { name: 'user_messages', position: 5001n });
    // 5 documents an event: 200 events a transaction, 25 transactions.
    expect(mongo.transactions()).toBe(25);
    const perTx = new Map<number, number>();
    for (const c of mongo.calls.filter((c) => c.collection !== '_checkpoints')) perTx.set(c.tx, (perTx.get(c.tx) ?? 0) + c.n);
    expect(Math.max(...perTx.values())).toBeLessThanOrEqual(1000);
    expect(mongo.calls.filter((c) => c.collection === '_checkpoints' && c.op === 'updateOne').map((c) => c.tx)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });
});
