import type { Collection, Db } from 'mongodb';
import type { CredentialEntry, CredentialKind, CredentialStorePort } from '@app/application';

type CredentialDoc = {
  _id: string;
  realm_id: number;
  user_id: number;
  kind: CredentialKind;
  digest: string | null;
  sealed: string;
  /** Orders a user's entries for pruneBefore: the store's clock in ms, then a counter. */
  seq: number;
};
type MarkDoc = { _id: string; value: string };

/**
 * The credential store of the servers set: the `_credentials` collection (outside the read
 * models' copies, so a rebuild neither copies nor drops it, and `export-events` never reads it).
 * `put` is an upsert with `$setOnInsert`, so an entry already stored stays as it is; the unique
 * `_id` makes two concurrent puts of one id store one entry (the loser's upsert is a no-op or a
 * duplicate-key error, which means the same).
 */
export class MongoCredentialStore implements CredentialStorePort {
  private readonly entries: Collection<CredentialDoc>;
  private readonly marks: Collection<MarkDoc>;
  private counter = 0;
  private indexed: Promise<unknown> | undefined;

  constructor(db: Db) {
    this.entries = db.collection<CredentialDoc>('_credentials');
    this.marks = db.collection<MarkDoc>('_credential_marks');
  }

  private ensureIndex(): Promise<unknown> {
    this.indexed ??= this.entries.createIndex({ user_id: 1, kind: 1, seq: 1 });
    return this.indexed;
  }

  async put(entry: CredentialEntry): Promise<void> {
    await this.ensureIndex();
    const seq = Date.now() * 1000 + (this.counter++ % 1000);
    const doc = { realm_id: entry.realmId, user_id: entry.userId, kind: entry.kind, digest: entry.digest, sealed: entry.sealed, seq };
    try {
      await this.entries.updateOne({ _id: entry.id }, { $setOnInsert: doc }, { upsert: true });
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
  }

  async get(id: string): Promise<CredentialEntry | null> {
    const doc = await this.entries.findOne({ _id: id });
    return doc && { id: doc._id, realmId: doc.realm_id, userId: doc.user_id, kind: doc.kind, digest: doc.digest, sealed: doc.sealed };
  }

  async remove(id: string): Promise<void> {
    await this.entries.deleteOne({ _id: id });
  }

  async pruneBefore(userId: number, kind: CredentialKind, keepId: string): Promise<number> {
    const keep = await this.entries.findOne({ _id: keepId, user_id: userId, kind });
    if (!keep) return 0;
    return (await this.entries.deleteMany({ user_id: userId, kind, seq: { $lt: keep.seq } })).deletedCount;
  }

  async mark(name: string): Promise<string | null> {
    return (await this.marks.findOne({ _id: name }))?.value ?? null;
  }

  async setMark(name: string, value: string): Promise<void> {
    await this.marks.updateOne({ _id: name }, { $set: { value } }, { upsert: true });
  }

  async close(): Promise<void> {
    // The client belongs to the read model copies.
  }
}
