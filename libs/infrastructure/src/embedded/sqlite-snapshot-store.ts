import type Database from 'better-sqlite3';
import type { DeciderSnapshot, SnapshotStorePort } from '@app/application';

type Row = { stream_id: string; decider: string; version: string; revision: number; event_id: string; state: string };

/**
 * Deciders' snapshots in their own SQLite file (`DATA_DIR/snapshots.sqlite`): a cache of the
 * log, so not beside the events (a snapshot write never takes the events' write lock) nor in the
 * read models (a rebuild does not drop it). Processes sharing the data directory share it.
 * One row per (stream, decider); the upsert keeps the newest revision of the newest version.
 */
export class SqliteSnapshotStore implements SnapshotStorePort {
  private readonly select: Database.Statement<[string, string], Row>;
  private readonly upsert: Database.Statement<[string, string, string, number, string, string]>;
  private readonly removeAll: Database.Statement<[string]>;
  private readonly remove: Database.Statement<[string]>;

  constructor(private readonly db: Database.Database) {
    // A deleted snapshot's bytes are overwritten, not left in a free page (docs/security.md, "Read models").
    db.pragma('secure_delete = ON');
    db.exec(`
      CREATE TABLE IF NOT EXISTS snapshots (
        stream_id TEXT    NOT NULL,
        decider   TEXT    NOT NULL,
        version   TEXT    NOT NULL,
        revision  INTEGER NOT NULL,
        event_id  TEXT    NOT NULL,
        state     TEXT    NOT NULL,
        PRIMARY KEY (stream_id, decider)
      );
    `);
    this.remove = db.prepare('DELETE FROM snapshots WHERE stream_id = ?');
    this.select = db.prepare('SELECT * FROM snapshots WHERE stream_id = ? AND decider = ?');
    this.upsert = db.prepare(
      `INSERT INTO snapshots (stream_id, decider, version, revision, event_id, state) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (stream_id, decider) DO UPDATE SET
         version = excluded.version, revision = excluded.revision, event_id = excluded.event_id, state = excluded.state
       WHERE excluded.version <> snapshots.version OR excluded.revision > snapshots.revision`,
    );
    this.removeAll = db.prepare('DELETE FROM snapshots WHERE decider = ?');
  }

  async removeDecider(decider: string): Promise<number> {
    return this.removeAll.run(decider).changes;
  }

  async load(streamId: string, decider: string): Promise<DeciderSnapshot | undefined> {
    const row = this.select.get(streamId, decider);
    if (!row) return undefined;
    return { streamId: row.stream_id, decider: row.decider, version: row.version, revision: BigInt(row.revision), eventId: row.event_id, state: row.state };
  }

  async save(snapshot: DeciderSnapshot): Promise<void> {
    this.upsert.run(snapshot.streamId, snapshot.decider, snapshot.version, Number(snapshot.revision), snapshot.eventId, snapshot.state);
  }

  async delete(streamIds: readonly string[]): Promise<void> {
    if (streamIds.length === 0) return;
    this.db.transaction(() => {
      for (const streamId of streamIds) this.remove.run(streamId);
    })();
  }

  async close(): Promise<void> {
    // The database belongs to whoever opened it (openAdapters closes its files).
  }
}
