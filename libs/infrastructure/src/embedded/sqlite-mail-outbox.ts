import type Database from 'better-sqlite3';
import type { MailOutboxPort, OutboxMail, OutboxStatus, OutgoingMail } from '@app/application';

type Row = {
  id: string;
  kind: string;
  status: OutboxStatus;
  attempts: number;
  created_at: number;
  next_attempt_at: number;
  sent_at: number | null;
  last_error: string | null;
  mail: string;
};

const toMail = (r: Row): OutboxMail => ({
  ...(JSON.parse(r.mail) as OutgoingMail),
  id: r.id,
  kind: r.kind,
  status: r.status,
  attempts: r.attempts,
  createdAt: r.created_at,
  nextAttemptAt: r.next_attempt_at,
  sentAt: r.sent_at,
  lastError: r.last_error,
});

/** The envelope of a mail whose body is gone (sent or failed): the link it carried was a secret. */
const envelopeOnly = (mail: string): string => {
  const { to, from, fromName, subject } = JSON.parse(mail) as OutgoingMail;
  return JSON.stringify({ to, from, fromName, subject, text: '' });
};

/**
 * The outbox in a SQLite file of its own (`DATA_DIR/mail-outbox.sqlite`, created owner-only):
 * neither the log nor a read model (a rebuild must not touch it). A claim is one
 * `UPDATE … RETURNING` statement, atomic across the processes sharing the data directory. Bodies of
 * sent and failed mails are erased from the file and its WAL (secure_delete, a truncating checkpoint).
 */
export class SqliteMailOutbox implements MailOutboxPort {
  private readonly insert: Database.Statement;
  private readonly claim: Database.Statement<[number, number, number], Row>;
  private readonly sent: Database.Statement;
  private readonly retry: Database.Statement;
  private readonly failed: Database.Statement;
  private readonly one: Database.Statement<[string], Row>;
  private readonly due: Database.Statement<[], { due: number | null }>;

  constructor(private readonly db: Database.Database) {
    // A body dropped from a sent mail is overwritten with zeros, not left in free space.
    db.pragma('secure_delete = ON');
    db.exec(`
      CREATE TABLE IF NOT EXISTS mail_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        next_attempt_at INTEGER NOT NULL,
        sent_at INTEGER,
        last_error TEXT,
        mail TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS mail_outbox_due ON mail_outbox (status, next_attempt_at);
    `);
    this.insert = db.prepare(
      `INSERT INTO mail_outbox (id, kind, status, created_at, next_attempt_at, mail) VALUES (?, ?, 'pending', ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    );
    // Pending and due, or claimed by a process whose lease lapsed (it died while sending).
    this.claim = db.prepare(
      `UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, next_attempt_at = ?
       WHERE seq IN (
         SELECT seq FROM mail_outbox WHERE status IN ('pending', 'sending') AND next_attempt_at <= ?
         ORDER BY next_attempt_at, seq LIMIT ?
       )
       RETURNING *`,
    );
    this.sent = db.prepare(`UPDATE mail_outbox SET status = 'sent', sent_at = ?, last_error = NULL, mail = ? WHERE id = ? AND status = 'sending'`);
    this.retry = db.prepare(`UPDATE mail_outbox SET status = 'pending', next_attempt_at = ?, last_error = ? WHERE id = ? AND status = 'sending'`);
    this.failed = db.prepare(`UPDATE mail_outbox SET status = 'failed', sent_at = NULL, next_attempt_at = ?, last_error = ?, mail = ? WHERE id = ? AND status = 'sending'`);
    this.one = db.prepare('SELECT * FROM mail_outbox WHERE id = ?');
    this.due = db.prepare(`SELECT MIN(next_attempt_at) AS due FROM mail_outbox WHERE status IN ('pending', 'sending')`);
  }

  async enqueue(mail: OutgoingMail & { id: string; kind: string }, now: number): Promise<boolean> {
    const { id, kind, ...content } = mail;
    return this.insert.run(id, kind, now, now, JSON.stringify(content)).changes === 1;
  }

  async claimDue(now: number, leaseMs: number, limit: number): Promise<OutboxMail[]> {
    return this.claim
      .all(now + leaseMs, now, limit)
      .map(toMail)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async markSent(id: string, now: number): Promise<void> {
    this.bodyless(id, (mail) => this.sent.run(now, mail, id));
  }

  async markRetry(id: string, nextAttemptAt: number, error: string): Promise<void> {
    this.retry.run(nextAttemptAt, error, id);
  }

  async markFailed(id: string, now: number, error: string): Promise<void> {
    this.bodyless(id, (mail) => this.failed.run(now, error, mail, id));
  }

  async get(id: string): Promise<OutboxMail | null> {
    const row = this.one.get(id);
    return row ? toMail(row) : null;
  }

  async list(options: { limit?: number; status?: OutboxStatus } = {}): Promise<OutboxMail[]> {
    const limit = options.limit ?? 100;
    const rows = options.status
      ? this.db.prepare<[string, number], Row>('SELECT * FROM mail_outbox WHERE status = ? ORDER BY seq DESC LIMIT ?').all(options.status, limit)
      : this.db.prepare<[number], Row>('SELECT * FROM mail_outbox ORDER BY seq DESC LIMIT ?').all(limit);
    return rows.map(toMail);
  }

  async nextDueAt(): Promise<number | null> {
    return this.due.get()?.due ?? null;
  }

  async close(): Promise<void> {}

  /**
   * Records an outcome that drops the body, then checkpoints the WAL into the database and truncates
   * it: the WAL would otherwise keep the page as it was, link included, until SQLite reused its frames.
   * (A checkpoint that other connections hold back leaves frames behind; the next outcome retries.)
   */
  private bodyless(id: string, write: (mail: string) => unknown): void {
    const changed = this.db.transaction(() => {
      const row = this.one.get(id);
      if (row?.status !== 'sending') return false;
      write(envelopeOnly(row.mail));
      return true;
    })();
    if (changed) this.db.pragma('wal_checkpoint(TRUNCATE)');
  }
}
