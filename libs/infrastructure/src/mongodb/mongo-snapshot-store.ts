import { gunzipSync, gzipSync } from 'node:zlib';
import { Binary, MongoServerError, type Collection, type Db } from 'mongodb';
import type { DeciderSnapshot, SnapshotStorePort } from '@app/application';

type SnapshotDoc = {
  _id: { decider: string; stream: string };
  stream_id: string;
  decider: string;
  version: string;
  revision: number;
  event_id: string;
  /** JSON text, or that text gzipped when it would not fit a document comfortably. */
  state: string | Binary;
};

const DUPLICATE_KEY = 11000;
/** Above this many characters the state is stored gzipped (a document may hold 16 MiB in all). */
export const MONGO_SNAPSHOT_INLINE_LIMIT = 4 * 1024 * 1024;
/** A gzipped state still larger than this is not stored (the runner logs it and reads the stream). */
const MONGO_SNAPSHOT_MAX_BYTES = 15 * 1024 * 1024;

export class SnapshotTooLargeError extends Error {}

/**
 * Deciders' snapshots in MongoDB: the `_snapshots` collection (outside the read models' copies, so
 * a rebuild neither copies nor drops it), one document per (stream, decider). The save is one
 * conditional upsert: it matches the stored document only when that one is older (another version,
 * or a lower revision); when the stored one is newer the upsert's insert collides on `_id` and the
 * newer snapshot stays.
 */
export class MongoSnapshotStore implements SnapshotStorePort {
  private readonly snapshots: Collection<SnapshotDoc>;
  private streamIndex: Promise<string> | undefined;

  constructor(db: Db) {
    this.snapshots = db.collection<SnapshotDoc>('_snapshots');
  }

  /** A document as `_id` (fields in this order, as equality on an embedded document needs). */
  private static idOf(streamId: string, decider: string): SnapshotDoc['_id'] {
    return { decider, stream: streamId };
  }

  async load(streamId: string, decider: string): Promise<DeciderSnapshot | undefined> {
    const doc = await this.snapshots.findOne({ _id: MongoSnapshotStore.idOf(streamId, decider) });
    if (!doc) return undefined;
    const state = typeof doc.state === 'string' ? doc.state : gunzipSync(doc.state.buffer).toString('utf8');
    return { streamId: doc.stream_id, decider: doc.decider, version: doc.version, revision: BigInt(doc.revision), eventId: doc.event_id, state };
  }

  async save(snapshot: DeciderSnapshot): Promise<void> {
    let state: string | Binary = snapshot.state;
    if (snapshot.state.length > MONGO_SNAPSHOT_INLINE_LIMIT) {
      const zipped = gzipSync(snapshot.state);
      if (zipped.length > MONGO_SNAPSHOT_MAX_BYTES) {
        throw new SnapshotTooLargeError(`the snapshot of ${snapshot.streamId} is ${zipped.length} bytes gzipped, more than a MongoDB document holds`);
      }
      state = new Binary(zipped);
    }
    const _id = MongoSnapshotStore.idOf(snapshot.streamId, snapshot.decider);
    const revision = Number(snapshot.revision);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.snapshots.updateOne(
          { _id, $or: [{ version: { $ne: snapshot.version } }, { revision: { $lt: revision } }] },
          { $set: { stream_id: snapshot.streamId, decider: snapshot.decider, version: snapshot.version, revision, event_id: snapshot.eventId, state } },
          { upsert: true },
        );
        return;
      } catch (error) {
        if (!(error instanceof MongoServerError && Number(error.code) === DUPLICATE_KEY)) throw error;
        // The document exists and is not older: the stored snapshot stays. On the first attempt
        // the collision may instead be with a concurrent first save (both inserting): try again,
        // now as an update of that document if it is older.
        if (attempt >= 2) return;
      }
    }
  }

  async removeDecider(decider: string): Promise<number> {
    return (await this.snapshots.deleteMany({ decider })).deletedCount;
  }

  async delete(streamIds: readonly string[]): Promise<void> {
    if (streamIds.length === 0) return;
    // By stream whatever the decider: `_id` matches only whole, so an index of its own (made once).
    await (this.streamIndex ??= this.snapshots.createIndex({ stream_id: 1 }, { name: 'ix_stream' }));
    await this.snapshots.deleteMany({ stream_id: { $in: [...streamIds] } });
  }

  async close(): Promise<void> {
    // The database's client belongs to the read models (openAdapters closes it).
  }
}
