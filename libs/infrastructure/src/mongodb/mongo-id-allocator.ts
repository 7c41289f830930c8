import { MongoServerError, type Collection, type Db } from 'mongodb';
import { decodePosition, encodePosition, type GlobalPosition, type IdAllocatorPort } from '@app/application';
import type { MongoReadStore } from './mongo-read-store';

type SequenceRow = { _id: string; value: number };
type ScanRow = { _id: string; position: string };
/** The `_sequences_log_scan` document: how far the log was scanned for ids (advanceSequencesFromLog). */
const SCAN_ID = 'log';

const DUPLICATE_KEY = 11000;
/** Concurrent first allocations of a sequence can collide on the upsert; a retry then updates. */
const MAX_ATTEMPTS = 5;

/**
 * Named sequences in the `_sequences` collection, one document per sequence. A single
 * findOneAndUpdate with `$inc` is atomic on one document, so every allocation is unique and
 * increasing across all processes sharing the database.
 */
export class MongoIdAllocator implements IdAllocatorPort {
  private readonly sequences: Collection<SequenceRow>;
  private readonly scans: Collection<ScanRow>;

  constructor(db: Db) {
    this.sequences = db.collection<SequenceRow>('_sequences');
    this.scans = db.collection<ScanRow>('_sequences_log_scan');
  }

  /** Shares the read store's MongoClient (and its lifetime: closing the store closes both). */
  static fromReadStore(store: MongoReadStore): MongoIdAllocator {
    return new MongoIdAllocator(store.db);
  }

  async next(sequence: string): Promise<number> {
    return this.nextBlock(sequence, 1);
  }

  async nextBlock(sequence: string, count: number): Promise<number> {
    if (!Number.isInteger(count) || count < 1) throw new Error('count must be a positive integer');
    const value = await this.allocate(sequence, count);
    return value - count + 1;
  }

  private async allocate(sequence: string, count: number): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Driver 6+: findOneAndUpdate resolves to the document itself (or null) unless
        // includeResultMetadata is true. With upsert and returnDocument 'after' it is never null:
        // a missing sequence is created as { _id, value: count }, so ids start at 1.
        const row = await this.sequences.findOneAndUpdate(
          { _id: sequence },
          { $inc: { value: count } },
          { upsert: true, returnDocument: 'after' },
        );
        if (!row) throw new Error(`sequence ${sequence} was not returned by the upsert`);
        return Number(row.value);
      } catch (error) {
        // Two upserts racing to create the same _id: one fails with a duplicate key error, and
        // the documented remedy is to retry, which then succeeds as an update.
        if (error instanceof MongoServerError && Number(error.code) === DUPLICATE_KEY && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  async advanceTo(sequence: string, atLeast: number): Promise<void> {
    if (!Number.isSafeInteger(atLeast) || atLeast < 1) return;
    await this.upsertRetrying(() => this.sequences.updateOne({ _id: sequence }, { $max: { value: atLeast } }, { upsert: true }));
  }

  async logScannedThrough(): Promise<GlobalPosition | undefined> {
    const row = await this.scans.findOne({ _id: SCAN_ID });
    return row ? decodePosition(row.position) : undefined;
  }

  async markLogScanned(position: GlobalPosition): Promise<void> {
    // $max on padded decimal text is numeric order (encodePosition).
    await this.upsertRetrying(() => this.scans.updateOne({ _id: SCAN_ID }, { $max: { position: encodePosition(position) } }, { upsert: true }));
  }

  private async upsertRetrying(run: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await run();
        return;
      } catch (error) {
        if (error instanceof MongoServerError && Number(error.code) === DUPLICATE_KEY && attempt < MAX_ATTEMPTS) continue;
        throw error;
      }
    }
  }
}
