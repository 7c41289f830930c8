/**
 * What the raw-SQLite micro-benchmarks (bench/um-unread-layout.ts, bench/um-layouts.ts) share: a
 * database opened with openSqlite's settings and the process's CPU time.
 */
import Database from 'better-sqlite3';

/** A WAL database with the pragmas openSqlite sets (libs/infrastructure/src/embedded/sqlite.ts). */
export function openWalDatabase(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 10000');
  db.pragma('cache_size = -65536');
  return db;
}

/** User + system CPU time of this process so far, in milliseconds. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
