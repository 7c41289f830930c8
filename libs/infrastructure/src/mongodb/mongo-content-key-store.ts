import type { Collection, Db } from 'mongodb';
import { type BatchPuncturer, CONTENT_KEY_GONE, type ContentKeyRequest, type ContentKeyStorePort, type StoredContentKey } from '@app/application';

/** A live key is keyed by its scope (one live key per scope); a destroyed one keeps only its id. */
type KeyDoc = { _id: string; key_id: string; wrapped: string; destroy_at: Date | null };
/** A message whose key is to be punctured out of its batch's. */
type PunctureDoc = { _id: number; batch_scope: string; at: Date };
type TombstoneDoc = { _id: string };
type MemberDoc = { _id: string; scope: string; message_id: number };
type MarkDoc = { _id: string; value: string };

/**
 * The content-key store of the servers set: the `content_keys` collection (outside the read
 * models' copies: a rebuild neither copies nor drops it, and `export-events` never reads it).
 * Destroying a key deletes its document; MongoDB (WiredTiger) reuses the freed space, and its
 * journal and oplog age out (docs/security.md says what that means for backups).
 */
export class MongoContentKeyStore implements ContentKeyStorePort {
  private readonly keys: Collection<KeyDoc>;
  private readonly tombstones: Collection<TombstoneDoc>;
  private readonly members: Collection<MemberDoc>;
  private readonly marks: Collection<MarkDoc>;
  private readonly punctures: Collection<PunctureDoc>;
  private indexed: Promise<unknown> | undefined;

  constructor(db: Db) {
    this.keys = db.collection<KeyDoc>('content_keys');
    this.tombstones = db.collection<TombstoneDoc>('content_keys_destroyed');
    this.members = db.collection<MemberDoc>('content_key_topic_members');
    this.marks = db.collection<MarkDoc>('content_key_marks');
    this.punctures = db.collection<PunctureDoc>('content_key_punctures');
  }

  private ensureIndexes(): Promise<unknown> {
    this.indexed ??= Promise.all([
      this.keys.createIndex({ key_id: 1 }, { unique: true }),
      this.keys.createIndex({ destroy_at: 1 }, { partialFilterExpression: { destroy_at: { $type: 'date' } } }),
      this.members.createIndex({ scope: 1 }),
      this.members.createIndex({ message_id: 1 }),
      this.punctures.createIndex({ at: 1 }),
      this.punctures.createIndex({ batch_scope: 1 }),
    ]);
    return this.indexed;
  }

  async getOrCreate(requests: ContentKeyRequest[]): Promise<StoredContentKey[]> {
    await this.ensureIndexes();
    const answers: StoredContentKey[] = [];
    for (const { scope, candidate, members } of requests) {
      await this.addMembers(scope, members ?? []);
      let doc = await this.keys.findOne({ _id: scope });
      if (!doc) {
        const created = candidate();
        try {
          await this.keys.updateOne({ _id: scope }, { $setOnInsert: { key_id: created.keyId, wrapped: created.wrapped, destroy_at: null } }, { upsert: true });
        } catch (error) {
          // Two racing upserts of one scope: the loser's duplicate key means the winner's key stands.
          if ((error as { code?: number }).code !== 11000) throw error;
        }
        doc = await this.keys.findOne({ _id: scope });
      }
      if (!doc) throw new Error(`the content key of ${scope} vanished while it was created`);
      answers.push({ keyId: doc.key_id, scope, wrapped: doc.wrapped });
    }
    return answers;
  }

  async get(keyId: string): Promise<StoredContentKey | typeof CONTENT_KEY_GONE | null> {
    const doc = await this.keys.findOne({ key_id: keyId });
    if (doc) return { keyId: doc.key_id, scope: doc._id, wrapped: doc.wrapped };
    return (await this.tombstones.findOne({ _id: keyId })) ? CONTENT_KEY_GONE : null;
  }

  async scheduleDestroy(scope: string, at: Date): Promise<void> {
    await this.keys.updateOne({ _id: scope }, [{ $set: { destroy_at: { $cond: [{ $eq: [{ $type: '$destroy_at' }, 'date'] }, { $min: ['$destroy_at', at] }, at] } } }]);
  }

  async schedulePuncture(messageId: number, batchScope: string, at: Date): Promise<void> {
    await this.punctures.updateOne(
      { _id: messageId },
      [{ $set: { batch_scope: batchScope, at: { $cond: [{ $eq: [{ $type: '$at' }, 'date'] }, { $min: ['$at', at] }, at] } } }],
      { upsert: true },
    );
  }

  /**
   * One batch's due punctures: its document rewritten (or destroyed) only if it is still the one
   * read, and the punctures removed only then, so that a racing purge or a crash leaves them to be
   * done again (doing one twice changes nothing).
   */
  private async punctureBatch(batchScope: string, now: Date, puncture: BatchPuncturer): Promise<number> {
    const due = new Set((await this.punctures.find({ batch_scope: batchScope, at: { $lte: now } }).toArray()).map((p) => p._id));
    if (due.size === 0) return 0;
    const live = await this.keys.findOne({ _id: batchScope });
    if (live) {
      const rest = puncture({ keyId: live.key_id, scope: live._id, wrapped: live.wrapped }, due);
      const unchanged = { _id: live._id, key_id: live.key_id, wrapped: live.wrapped };
      if (rest !== null) {
        if ((await this.keys.updateOne(unchanged, { $set: { wrapped: rest } })).matchedCount === 0) return 0;
      } else {
        // The tombstone first: a crash in between leaves a key that is still destroyed next time.
        await this.tombstones.updateOne({ _id: live.key_id }, { $setOnInsert: { _id: live.key_id } }, { upsert: true });
        if ((await this.keys.deleteOne(unchanged)).deletedCount === 0) return 0;
      }
    }
    await this.punctures.deleteMany({ _id: { $in: [...due] }, at: { $lte: now } });
    return due.size;
  }

  async destroyDue(now: Date, limit: number, puncture: BatchPuncturer): Promise<number> {
    await this.ensureIndexes();
    let destroyed = 0;
    // (Bounded also in tries: a batch another purge is rewriting meanwhile is tried again.)
    for (let tries = 0, next = await this.punctures.findOne({ at: { $lte: now } }, { sort: { at: 1 } }); next && destroyed < limit && tries < limit; tries++, next = await this.punctures.findOne({ at: { $lte: now } }, { sort: { at: 1 } })) {
      destroyed += await this.punctureBatch(next.batch_scope, now, puncture);
    }
    // (MongoDB reads a limit of 0 as no limit.)
    if (destroyed >= limit) return destroyed;
    for (const doc of await this.keys.find({ destroy_at: { $lte: now } }).sort({ destroy_at: 1 }).limit(limit - destroyed).toArray()) {
      if (doc._id.startsWith('topic:') && (await this.members.findOne({ scope: doc._id }))) {
        await this.keys.updateOne({ _id: doc._id, key_id: doc.key_id }, { $set: { destroy_at: null } });
        continue;
      }
      // The tombstone first: a crash in between leaves a key that is still destroyed next time.
      await this.tombstones.updateOne({ _id: doc.key_id }, { $setOnInsert: { _id: doc.key_id } }, { upsert: true });
      const { deletedCount } = await this.keys.deleteOne({ _id: doc._id, key_id: doc.key_id });
      destroyed += deletedCount;
    }
    return destroyed;
  }

  async releaseMessage(messageId: number): Promise<string[]> {
    const docs = await this.members.find({ message_id: messageId }).toArray();
    if (docs.length === 0) return [];
    await this.members.deleteMany({ _id: { $in: docs.map((d) => d._id) } });
    const emptied: string[] = [];
    for (const scope of new Set(docs.map((d) => d.scope))) if (!(await this.members.findOne({ scope }))) emptied.push(scope);
    return emptied;
  }

  private async addMembers(scope: string, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.members.bulkWrite(
      ids.map((id) => ({ updateOne: { filter: { _id: `${scope}|${id}` }, update: { $setOnInsert: { scope, message_id: id } }, upsert: true } })),
      { ordered: false },
    );
  }

  async mark(name: string): Promise<string | null> {
    return (await this.marks.findOne({ _id: name }))?.value ?? null;
  }

  async setMark(name: string, value: string): Promise<void> {
    await this.marks.updateOne({ _id: name }, { $set: { value } }, { upsert: true });
  }

  async close(): Promise<void> {
    // The client belongs to whoever opened it.
  }
}
