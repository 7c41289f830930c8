import { MongoServerError, type Collection, type Db } from 'mongodb';
import type { PresenceStorePort } from '@app/application';
import type { PresenceRow, PresenceTimes } from '@app/domain';

type PresenceDoc = { _id: number; realm_id: number; last_active_time: number | null; last_connected_time: number; last_update_id: number };
type SequenceDoc = { _id: number; last_update_id: number };

const DUPLICATE_KEY = 11000;

const toPresence = (d: PresenceDoc): PresenceRow => ({
  userId: d._id,
  realmId: d.realm_id,
  lastActiveTime: d.last_active_time,
  lastConnectedTime: d.last_connected_time,
  lastUpdateId: d.last_update_id,
});

/**
 * Presence in MongoDB: `presence` (one document per user, `_id` = user id) and
 * `presence_sequences` (one counter per organization). A save takes the next id with an atomic
 * `$inc`, then writes the row; ids are unique and increasing across API instances. (Two saves in
 * flight may land out of id order; a client then misses one row until that user's next ping.)
 */
export class MongoPresenceStore implements PresenceStorePort {
  private readonly presence: Collection<PresenceDoc>;
  private readonly sequences: Collection<SequenceDoc>;
  private indexed: Promise<unknown> | undefined;

  constructor(db: Db) {
    this.presence = db.collection<PresenceDoc>('presence');
    this.sequences = db.collection<SequenceDoc>('presence_sequences');
  }

  private ensureIndexes(): Promise<unknown> {
    this.indexed ??= this.presence.createIndex({ realm_id: 1, last_update_id: 1 });
    return this.indexed;
  }

  async get(userId: number): Promise<PresenceRow | null> {
    const doc = await this.presence.findOne({ _id: userId });
    return doc ? toPresence(doc) : null;
  }

  async save(realmId: number, userId: number, times: PresenceTimes): Promise<number> {
    await this.ensureIndexes();
    const id = await this.nextId(realmId);
    await this.presence.updateOne(
      { _id: userId },
      { $set: { realm_id: realmId, last_active_time: times.lastActiveTime, last_connected_time: times.lastConnectedTime, last_update_id: id } },
      { upsert: true },
    );
    return id;
  }

  async list(realmId: number, options: { connectedSince: number; afterUpdateId?: number }): Promise<PresenceRow[]> {
    await this.ensureIndexes();
    const docs = await this.presence
      .find({ realm_id: realmId, last_update_id: { $gt: options.afterUpdateId ?? -1 }, last_connected_time: { $gte: options.connectedSince } })
      .sort({ _id: 1 })
      .toArray();
    return docs.map(toPresence);
  }

  async close(): Promise<void> {
    // The MongoClient belongs to whoever opened the database.
  }

  private async nextId(realmId: number): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        const row = await this.sequences.findOneAndUpdate({ _id: realmId }, { $inc: { last_update_id: 1 } }, { upsert: true, returnDocument: 'after' });
        if (!row) throw new Error(`presence sequence of organization ${realmId} was not returned by the upsert`);
        return row.last_update_id;
      } catch (error) {
        // Two first saves racing to create the counter: the loser retries as an update.
        if (error instanceof MongoServerError && Number(error.code) === DUPLICATE_KEY && attempt < 5) continue;
        throw error;
      }
    }
  }
}
