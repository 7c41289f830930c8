import type Database from 'better-sqlite3';
import { join } from 'node:path';
import type { BusMessage, ClientEventBusPort } from '@app/application';
import type { AppConfig } from '@app/config';
import { openSqlite } from './sqlite';
import { SqliteChangeWatcher } from './sqlite-change-watcher';

/** How long a published message is kept for processes that have not read it yet. */
const RETAIN_MS = 60_000;
const PRUNE_EVERY_MS = 30_000;

/**
 * Client events outside the log (typing notifications, presence announcements) across the API
 * processes of the embedded split layout (several processes on one DATA_DIR): a SQLite table in
 * `DATA_DIR/client-events.sqlite`, appended by the publisher and read by every process from the
 * point it subscribed. Other processes' commits wake the readers through SqliteChangeWatcher
 * (`data_version` woken by a file watch, a slow poll as the fallback); the publisher reads its
 * own message at once. Rows are pruned after a minute: like Redis pub/sub, this is fire-and-forget
 * for processes that were not listening.
 */
export class SqliteClientEventBus implements ClientEventBusPort {
  private handlers: ((message: BusMessage) => void)[] = [];
  private readonly insert: Database.Statement<[number, string]>;
  private readonly since: Database.Statement<[number], { seq: number; body: string }>;
  private readonly watcher: SqliteChangeWatcher;
  private unsubscribe: (() => void) | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private last: number;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    file: string,
    private readonly options: { fallbackPollMs?: number; retainMs?: number; now?: () => number } = {},
  ) {
    db.exec('CREATE TABLE IF NOT EXISTS client_event_bus (seq INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, body TEXT NOT NULL)');
    this.insert = db.prepare('INSERT INTO client_event_bus (at, body) VALUES (?, ?)');
    this.since = db.prepare('SELECT seq, body FROM client_event_bus WHERE seq > ? ORDER BY seq');
    this.last = db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM client_event_bus').pluck().get() as number;
    this.watcher = new SqliteChangeWatcher([{ db, file }], { fallbackPollMs: options.fallbackPollMs ?? 100 });
  }

  static open(dataDir: string, synchronous: AppConfig['sqliteSynchronous'] = 'normal', options?: { fallbackPollMs?: number }): SqliteClientEventBus {
    const file = join(dataDir, 'client-events.sqlite');
    return new SqliteClientEventBus(openSqlite(file, synchronous), file, options);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  async publish(message: BusMessage): Promise<void> {
    if (this.closed) return;
    this.insert.run(this.now(), JSON.stringify(message));
    this.drain();
  }

  async subscribe(handler: (message: BusMessage) => void): Promise<void> {
    this.handlers.push(handler);
    this.unsubscribe ??= this.watcher.onChange(() => this.drain());
    if (!this.pruneTimer) {
      this.pruneTimer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
      this.pruneTimer.unref();
    }
  }

  /** Hands every message not read yet to the handlers, in publish order. */
  private drain(): void {
    if (this.closed || this.handlers.length === 0) return;
    for (const row of this.since.all(this.last)) {
      this.last = row.seq;
      let message: BusMessage;
      try {
        message = JSON.parse(row.body) as BusMessage;
      } catch {
        continue;
      }
      for (const handler of this.handlers) handler(message);
    }
  }

  private prune(): void {
    if (this.closed) return;
    try {
      this.db.prepare('DELETE FROM client_event_bus WHERE at < ?').run(this.now() - (this.options.retainMs ?? RETAIN_MS));
    } catch {
      // Busy with another process: the next prune catches up.
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.watcher.close();
    this.handlers = [];
    if (this.db.open) this.db.close();
  }
}
