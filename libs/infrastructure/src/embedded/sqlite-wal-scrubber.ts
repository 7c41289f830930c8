import type Database from 'better-sqlite3';
import type { ScrubResult, StorageScrubberPort } from '@app/application';
import { isFreshLoad } from './sqlite';

/** How long after a request the scrub runs (requests meanwhile join it: a topic deletion is one scrub). */
const DEBOUNCE_MS = 250;
/** How long before a scrub that busy readers kept from finishing is tried again. */
const RETRY_MS = 30_000;
/** How long a checkpoint waits for readers (the connection's 5 s would stall this process's requests). */
const CHECKPOINT_BUSY_TIMEOUT_MS = 100;
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * `wal_checkpoint(TRUNCATE)` on the read-model databases (every open copy) and the snapshot
 * store, after an erasure: with `secure_delete` on, the checkpoint writes the zeroed pages into
 * the database file, and the truncation drops every frame of the WAL, where the deleted text
 * also sat in the earlier versions of its pages. A database still filled from zero (fresh load)
 * has no WAL and is skipped. Any connection may checkpoint a WAL database, so in the split
 * layout the worker's request (after it projected the deletion) scrubs what the API processes
 * wrote too.
 */
export class SqliteWalScrubber implements StorageScrubberPort {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly databases: () => Database.Database[],
    private readonly log?: (details: Record<string, unknown>, message: string) => void,
  ) {}

  request(): void {
    this.schedule(DEBOUNCE_MS);
  }

  private schedule(delayMs: number): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.scrubNow();
    }, delayMs);
    this.timer.unref();
  }

  async scrubNow(): Promise<ScrubResult> {
    const dbs = this.databases().filter((db) => db.open && !isFreshLoad(db));
    let incomplete = 0;
    for (const db of dbs) {
      try {
        db.pragma(`busy_timeout = ${CHECKPOINT_BUSY_TIMEOUT_MS}`);
        // busy = 1: a reader kept the checkpoint from the end of the WAL; nothing was truncated.
        const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
        if (result?.busy) incomplete++;
      } catch (error) {
        incomplete++;
        this.log?.({ error: (error as Error).message, file: db.name }, 'could not checkpoint a database after an erasure');
      } finally {
        if (db.open) db.pragma(`busy_timeout = ${DEFAULT_BUSY_TIMEOUT_MS}`);
      }
    }
    if (incomplete > 0) this.schedule(RETRY_MS);
    return { databases: dbs.length, incomplete };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
