import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { CredentialEntry, CredentialKind, CredentialStorePort } from '@app/application';
import { openSqlite, type SqliteSynchronous } from './sqlite';

type Row = { id: string; realm_id: number; user_id: number; kind: CredentialKind; digest: string | null; sealed: string };

export const CREDENTIALS_FILE = 'credentials.sqlite';

/**
 * Opens `DATA_DIR/credentials.sqlite` readable by its owner only: the file is created 0600 before
 * SQLite opens it (SQLite gives its -wal and -shm files the database's mode), and an existing one
 * is narrowed to 0600.
 */
export function openCredentialDatabase(dataDir: string, synchronous: SqliteSynchronous = 'normal'): Database.Database {
  const file = join(dataDir, CREDENTIALS_FILE);
  mkdirSync(dataDir, { recursive: true });
  ownerOnlyFile(file);
  return openSqlite(file, synchronous);
}

/** Creates the file 0600 when absent, or narrows it to 0600. */
export function ownerOnlyFile(file: string): void {
  if (!existsSync(file)) {
    closeSync(openSync(file, 'a', 0o600));
  }
  chmodSync(file, 0o600);
}

/**
 * The credential store of the embedded set: its own SQLite file, apart from the events and the
 * read models, so that neither an export of the log nor a copy of the read models carries it.
 * Entries are sealed by CredentialVault; `seq` orders a user's entries for pruneBefore.
 */
export class SqliteCredentialStore implements CredentialStorePort {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS credentials (
        seq      INTEGER PRIMARY KEY,
        id       TEXT    NOT NULL UNIQUE,
        realm_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        kind     TEXT    NOT NULL,
        digest   TEXT,
        sealed   TEXT    NOT NULL
      );
      CREATE INDEX IF NOT EXISTS credentials_by_user ON credentials (user_id, kind, seq);
      CREATE TABLE IF NOT EXISTS marks (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    // Deleted entries are overwritten with zeros, not left in free pages.
    db.pragma('secure_delete = ON');
    this.statements = {
      insert: db.prepare('INSERT INTO credentials (id, realm_id, user_id, kind, digest, sealed) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING'),
      get: db.prepare<[string], Row>('SELECT id, realm_id, user_id, kind, digest, sealed FROM credentials WHERE id = ?'),
      remove: db.prepare('DELETE FROM credentials WHERE id = ?'),
      prune: db.prepare(
        `DELETE FROM credentials WHERE user_id = ? AND kind = ? AND seq < (SELECT seq FROM credentials WHERE id = ? AND user_id = ? AND kind = ?)`,
      ),
      mark: db.prepare<[string], { value: string }>('SELECT value FROM marks WHERE name = ?'),
      setMark: db.prepare('INSERT INTO marks (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    };
  }

  async put(entry: CredentialEntry): Promise<void> {
    this.statements.insert.run(entry.id, entry.realmId, entry.userId, entry.kind, entry.digest, entry.sealed);
  }

  async get(id: string): Promise<CredentialEntry | null> {
    const row = this.statements.get.get(id);
    return row ? { id: row.id, realmId: row.realm_id, userId: row.user_id, kind: row.kind, digest: row.digest, sealed: row.sealed } : null;
  }

  async remove(id: string): Promise<void> {
    this.statements.remove.run(id);
  }

  async pruneBefore(userId: number, kind: CredentialKind, keepId: string): Promise<number> {
    return this.statements.prune.run(userId, kind, keepId, userId, kind).changes;
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
