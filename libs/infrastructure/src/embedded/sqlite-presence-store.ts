import type Database from 'better-sqlite3';
import type { PresenceStorePort } from '@app/application';
import type { PresenceRow, PresenceTimes } from '@app/domain';

type Row = { user_id: number; realm_id: number; last_active_time: number | null; last_connected_time: number; last_update_id: number };

const toPresence = (r: Row): PresenceRow => ({
  userId: r.user_id,
  realmId: r.realm_id,
  lastActiveTime: r.last_active_time,
  lastConnectedTime: r.last_connected_time,
  lastUpdateId: r.last_update_id,
});

/**
 * Presence in its own SQLite file (`DATA_DIR/presence.sqlite`): not a read model (a rebuild of the
 * read models must not touch it) and not events. A save is one transaction of two prepared
 * statements: the organization's counter, then the user's row.
 */
export class SqlitePresenceStore implements PresenceStorePort {
  private readonly getRow: Database.Statement<[number], Row>;
  private readonly bump: Database.Statement<[number], { last_update_id: number }>;
  private readonly upsert: Database.Statement<[number, number, number | null, number, number]>;
  private readonly listRows: Database.Statement<[number, number, number], Row>;
  private readonly saveTx: Database.Transaction<(realmId: number, userId: number, times: PresenceTimes) => number>;

  constructor(db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS presence (
        user_id INTEGER PRIMARY KEY,
        realm_id INTEGER NOT NULL,
        last_active_time REAL,
        last_connected_time REAL NOT NULL,
        last_update_id INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS presence_realm_update ON presence (realm_id, last_update_id);
      CREATE TABLE IF NOT EXISTS presence_sequence (realm_id INTEGER PRIMARY KEY, last_update_id INTEGER NOT NULL);
    `);
    this.getRow = db.prepare('SELECT * FROM presence WHERE user_id = ?');
    this.bump = db.prepare(
      `INSERT INTO presence_sequence (realm_id, last_update_id) VALUES (?, 1)
       ON CONFLICT (realm_id) DO UPDATE SET last_update_id = last_update_id + 1 RETURNING last_update_id`,
    );
    this.upsert = db.prepare(
      `INSERT INTO presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET realm_id = excluded.realm_id, last_active_time = excluded.last_active_time,
         last_connected_time = excluded.last_connected_time, last_update_id = excluded.last_update_id`,
    );
    this.listRows = db.prepare(
      'SELECT * FROM presence WHERE realm_id = ? AND last_update_id > ? AND last_connected_time >= ? ORDER BY user_id',
    );
    this.saveTx = db.transaction((realmId: number, userId: number, times: PresenceTimes) => {
      const id = this.bump.get(realmId)!.last_update_id;
      this.upsert.run(userId, realmId, times.lastActiveTime, times.lastConnectedTime, id);
      return id;
    });
  }

  async get(userId: number): Promise<PresenceRow | null> {
    const row = this.getRow.get(userId);
    return row ? toPresence(row) : null;
  }

  async save(realmId: number, userId: number, times: PresenceTimes): Promise<number> {
    return this.saveTx.immediate(realmId, userId, times);
  }

  async list(realmId: number, options: { connectedSince: number; afterUpdateId?: number }): Promise<PresenceRow[]> {
    return this.listRows.all(realmId, options.afterUpdateId ?? -1, options.connectedSince).map(toPresence);
  }

  async close(): Promise<void> {
    // The database belongs to whoever opened it (openAdapters closes its files).
  }
}
