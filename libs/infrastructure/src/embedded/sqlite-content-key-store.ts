import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { type BatchPuncturer, CONTENT_KEY_GONE, type ContentKeyRequest, type ContentKeyStorePort, type StoredContentKey } from '@app/application';
import { openSqlite, type SqliteSynchronous } from './sqlite';
import { ownerOnlyFile } from './sqlite-credential-store';
import { mkdirSync } from 'node:fs';

export const CONTENT_KEYS_FILE = 'content-keys.sqlite';

/** Opens `DATA_DIR/content-keys.sqlite`, created 0600 before SQLite opens it (its -wal and -shm get the same mode). */
export function openContentKeyDatabase(dataDir: string, synchronous: SqliteSynchronous = 'normal'): Database.Database {
  const file = join(dataDir, CONTENT_KEYS_FILE);
  mkdirSync(dataDir, { recursive: true });
  ownerOnlyFile(file);
  return openSqlite(file, synchronous);
}

type Row = { key_id: string; scope: string; wrapped: string };

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The content-key store of the embedded set (docs/security.md, "How erasure works"): its own
 * SQLite file, apart from the events (so that no export or copy of the log carries a key).
 * `secure_delete` zeroes a destroyed key's bytes in the file (and a punctured batch row's old
 * value), and a `wal_checkpoint(TRUNCATE)`
 * after each destruction empties the WAL, which still held the page with the key.
 * A destroyed key leaves only its id (`destroyed_keys`), so that a read tells "erased" from "unknown".
 */
export class SqliteContentKeyStore implements ContentKeyStorePort {
  private readonly statements;
  private readonly createTx;
  private readonly destroyTx;

  constructor(private readonly db: Database.Database) {
    db.pragma('secure_delete = ON');
    db.exec(`
      CREATE TABLE IF NOT EXISTS content_keys (
        key_id     TEXT    PRIMARY KEY,
        scope      TEXT    NOT NULL UNIQUE,
        wrapped    TEXT    NOT NULL,
        destroy_at INTEGER
      );
      CREATE INDEX IF NOT EXISTS content_keys_due ON content_keys (destroy_at) WHERE destroy_at IS NOT NULL;
      CREATE TABLE IF NOT EXISTS destroyed_keys (key_id TEXT PRIMARY KEY) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS topic_members (scope TEXT NOT NULL, message_id INTEGER NOT NULL, PRIMARY KEY (scope, message_id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS topic_members_by_message ON topic_members (message_id);
      CREATE TABLE IF NOT EXISTS marks (name TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS punctures (message_id INTEGER PRIMARY KEY, batch_scope TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS punctures_due ON punctures (at);
      CREATE INDEX IF NOT EXISTS punctures_by_batch ON punctures (batch_scope);
    `);
    this.statements = {
      byScope: db.prepare<[string], Row>('SELECT key_id, scope, wrapped FROM content_keys WHERE scope = ?'),
      byId: db.prepare<[string], Row>('SELECT key_id, scope, wrapped FROM content_keys WHERE key_id = ?'),
      destroyed: db.prepare<[string], { key_id: string }>('SELECT key_id FROM destroyed_keys WHERE key_id = ?'),
      insert: db.prepare('INSERT INTO content_keys (key_id, scope, wrapped) VALUES (?, ?, ?)'),
      schedule: db.prepare('UPDATE content_keys SET destroy_at = min(coalesce(destroy_at, ?), ?) WHERE scope = ?'),
      due: db.prepare<[number, number], Row>('SELECT key_id, scope, wrapped FROM content_keys WHERE destroy_at IS NOT NULL AND destroy_at <= ? ORDER BY destroy_at LIMIT ?'),
      unschedule: db.prepare('UPDATE content_keys SET destroy_at = NULL WHERE key_id = ?'),
      remove: db.prepare('DELETE FROM content_keys WHERE key_id = ?'),
      tombstone: db.prepare('INSERT OR IGNORE INTO destroyed_keys (key_id) VALUES (?)'),
      addMember: db.prepare('INSERT OR IGNORE INTO topic_members (scope, message_id) VALUES (?, ?)'),
      release: db.prepare<[number], { scope: string }>('DELETE FROM topic_members WHERE message_id = ? RETURNING scope'),
      hasMember: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM topic_members WHERE scope = ? LIMIT 1'),
      mark: db.prepare<[string], { value: string }>('SELECT value FROM marks WHERE name = ?'),
      setMark: db.prepare('INSERT INTO marks (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
      schedulePuncture: db.prepare('INSERT INTO punctures (message_id, batch_scope, at) VALUES (?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET at = min(at, excluded.at)'),
      nextDueBatch: db.prepare<[number], { batch_scope: string }>('SELECT batch_scope FROM punctures WHERE at <= ? ORDER BY at LIMIT 1'),
      puncturesOf: db.prepare<[string], { message_id: number; at: number }>('SELECT message_id, at FROM punctures WHERE batch_scope = ?'),
      donePuncture: db.prepare('DELETE FROM punctures WHERE message_id = ?'),
      rewrap: db.prepare('UPDATE content_keys SET wrapped = ? WHERE key_id = ?'),
    };
    this.createTx = db.transaction((requests: ContentKeyRequest[]): StoredContentKey[] =>
      requests.map(({ scope, candidate, members }) => {
        for (const id of members ?? []) this.statements.addMember.run(scope, id);
        const found = this.statements.byScope.get(scope);
        if (found) return { keyId: found.key_id, scope, wrapped: found.wrapped };
        const created = candidate();
        this.statements.insert.run(created.keyId, scope, created.wrapped);
        return { keyId: created.keyId, scope, wrapped: created.wrapped };
      }),
    );
    this.destroyTx = db.transaction((now: number, limit: number): number => {
      let destroyed = 0;
      for (const row of this.statements.due.all(now, limit)) {
        // A topic that gained a message since it was marked keeps its key.
        if (row.scope.startsWith('topic:') && this.statements.hasMember.get(row.scope)) {
          this.statements.unschedule.run(row.key_id);
          continue;
        }
        this.statements.remove.run(row.key_id);
        this.statements.tombstone.run(row.key_id);
        destroyed++;
      }
      return destroyed;
    });
  }

  /** One batch's due punctures, atomically: its row rewritten without the punctured messages' keys (destroyed when none is left). */
  private punctureBatch(batchScope: string, now: number, puncture: BatchPuncturer): number {
    return this.db.transaction(() => {
      const due = new Set(this.statements.puncturesOf.all(batchScope).filter((p) => p.at <= now).map((p) => p.message_id));
      const live = this.statements.byScope.get(batchScope);
      if (live && due.size > 0) {
        const rest = puncture({ keyId: live.key_id, scope: live.scope, wrapped: live.wrapped }, due);
        if (rest !== null) this.statements.rewrap.run(rest, live.key_id);
        else {
          this.statements.remove.run(live.key_id);
          this.statements.tombstone.run(live.key_id);
        }
      }
      for (const id of due) this.statements.donePuncture.run(id);
      return due.size;
    }).immediate();
  }

  getOrCreateNow(requests: ContentKeyRequest[]): StoredContentKey[] {
    return requests.length === 0 ? [] : this.createTx.immediate(requests);
  }

  async getOrCreate(requests: ContentKeyRequest[]): Promise<StoredContentKey[]> {
    return this.getOrCreateNow(requests);
  }

  async get(keyId: string): Promise<StoredContentKey | typeof CONTENT_KEY_GONE | null> {
    const row = this.statements.byId.get(keyId);
    if (row) return { keyId: row.key_id, scope: row.scope, wrapped: row.wrapped };
    return this.statements.destroyed.get(keyId) ? CONTENT_KEY_GONE : null;
  }

  async scheduleDestroy(scope: string, at: Date): Promise<void> {
    this.statements.schedule.run(at.getTime(), at.getTime(), scope);
  }

  async schedulePuncture(messageId: number, batchScope: string, at: Date): Promise<void> {
    this.statements.schedulePuncture.run(messageId, batchScope, at.getTime());
  }

  async destroyDue(now: Date, limit: number, puncture: BatchPuncturer): Promise<number> {
    let destroyed = 0;
    // One batch per transaction, with a turn of the event loop between two (a puncture derives and
    // wraps up to a batch's size in keys, a few milliseconds).
    for (let next = this.statements.nextDueBatch.get(now.getTime()); next && destroyed < limit; next = this.statements.nextDueBatch.get(now.getTime())) {
      destroyed += this.punctureBatch(next.batch_scope, now.getTime(), puncture);
      await nextTurn();
    }
    if (destroyed < limit) destroyed += this.destroyTx.immediate(now.getTime(), limit - destroyed);
    // The WAL still holds the pages that held the keys until it is checkpointed and truncated.
    if (destroyed > 0) this.db.pragma('wal_checkpoint(TRUNCATE)');
    return destroyed;
  }

  async releaseMessage(messageId: number): Promise<string[]> {
    return this.db.transaction(() => {
      const scopes = this.statements.release.all(messageId).map((row) => row.scope);
      return scopes.filter((scope) => !this.statements.hasMember.get(scope));
    }).immediate();
  }

  async mark(name: string): Promise<string | null> {
    return this.statements.mark.get(name)?.value ?? null;
  }

  async setMark(name: string, value: string): Promise<void> {
    this.statements.setMark.run(name, value);
  }

  async close(): Promise<void> {
    // The database belongs to whoever opened it.
  }
}
