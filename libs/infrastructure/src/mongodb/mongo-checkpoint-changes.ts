import type { ChangeStream, Db } from 'mongodb';
import type { ReadModelChangesPort } from '@app/application';
import type { Logger } from '../system/logger';
import { CHECKPOINTS } from './mongo-read-store';

/** How long to wait before reopening a change stream that failed. */
const REOPEN_MS = 5000;

/**
 * Checkpoint moves in MongoDB, as they happen: a change stream on the checkpoint collections
 * (every copy's, `_checkpoints` and its suffixed names), opened while someone listens. Change
 * streams need a replica set (compose runs a one-node one); without one, or while the stream is
 * down, waiters keep to their fallback timer and the failure is logged.
 */
export class MongoCheckpointChanges implements ReadModelChangesPort {
  private readonly listeners = new Set<() => void>();
  private stream: ChangeStream | undefined;
  private reopenTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly logger?: Logger,
  ) {}

  onChange(listener: () => void): () => void {
    if (this.closed) return () => undefined;
    this.listeners.add(listener);
    this.open();
    return () => {
      this.listeners.delete(listener);
    };
  }

  private open(): void {
    if (this.stream || this.reopenTimer || this.closed) return;
    try {
      const stream = this.db.watch([{ $match: { 'ns.coll': { $regex: `^${CHECKPOINTS}` } } }], { fullDocument: 'default' });
      this.stream = stream;
      stream.on('change', () => {
        for (const listener of [...this.listeners]) listener();
      });
      stream.on('error', (error) => {
        this.logger?.error({ err: error }, 'checkpoint change stream failed; waiters fall back to polling until it reopens');
        this.stream = undefined;
        void stream.close().catch(() => undefined);
        if (this.closed) return;
        this.reopenTimer = setTimeout(() => {
          this.reopenTimer = undefined;
          if (this.listeners.size > 0) this.open();
        }, REOPEN_MS);
        this.reopenTimer.unref();
      });
    } catch (error) {
      this.logger?.error({ err: error }, 'could not open the checkpoint change stream; waiters poll instead');
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.listeners.clear();
    await this.stream?.close().catch(() => undefined);
    this.stream = undefined;
  }
}
