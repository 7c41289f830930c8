import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { mkdirOwnerOnly, OWNER_ONLY_FILE_MODE, tighten, touchOwnerOnly } from '@app/application';

export type SqliteSynchronous = 'normal' | 'full';

/**
 * Opens a SQLite database in WAL mode. `synchronous=normal` in WAL mode survives a crash of the
 * process (every committed transaction is in the WAL file); `full` also survives power loss at
 * the cost of an fsync per commit.
 */
export function openSqlite(file: string, synchronous: SqliteSynchronous = 'normal'): Database.Database {
  if (file !== ':memory:') prepareOwnerOnly(file);
  const db = new Database(file);
  // First: switching to WAL needs the lock another process (the CLI beside the server) may hold.
  db.pragma('busy_timeout = 5000');
  switchToWal(db);
  db.pragma(`synchronous = ${synchronous.toUpperCase()}`);
  // Checkpoint the WAL every ~40 MiB instead of every ~4 MiB: each checkpoint fsyncs, and at the
  // default they dominated the append and replay tails (measured in bench/: raw single-row
  // transactions went from ~14,500/s to ~21,000/s with this and the larger page cache).
  db.pragma('wal_autocheckpoint = 10000');
  db.pragma('cache_size = -65536'); // 64 MiB
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * The database file created 0600 before SQLite opens it (SQLite gives its -wal and -shm files the
 * database's mode), its directory 0700; files of an older installation are tightened.
 */
function prepareOwnerOnly(file: string): void {
  mkdirOwnerOnly(dirname(file));
  touchOwnerOnly(file);
  for (const suffix of ['-wal', '-shm', '-journal']) tighten(file + suffix, OWNER_ONLY_FILE_MODE);
}

/** How long a process starting beside others retries the switch to WAL (see switchToWal). */
const WAL_SWITCH_RETRY_MS = 15_000;

/**
 * `PRAGMA journal_mode = WAL`, retried while SQLite answers "database is locked". Processes that
 * open one file at the same moment right after another was killed (the split layout restarting,
 * the crash specs' workers) contend for the locks of the switch and of the WAL's recovery, and
 * the switch may then fail at once or after the busy timeout, which made a process fail to start
 * (seen twice in test/crash when the whole suite ran under load). It retries with
 * short pauses (a synchronous sleep: the connection is not in use yet) for a bounded time.
 */
function switchToWal(db: Database.Database): void {
  const deadline = Date.now() + WAL_SWITCH_RETRY_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      // By its code, not `instanceof SqliteError`: the native addon keeps the error class of the
      // first module instance that loaded it (under jest, another test file's).
      const code = (error as { code?: unknown }).code;
      const busy = typeof code === 'string' && code.startsWith('SQLITE_BUSY');
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 25 + Math.floor(Math.random() * 50));
    }
  }
}

/**
 * A read-model connection zeroes what it deletes or overwrites (`secure_delete`, per connection):
 * a deleted message's text must not stay in a free page or in the unused part of a page
 * (docs/security.md, "Read models"; the cost in docs/benchmarks.md). The search index has its own
 * FTS5 `secure-delete` (sqlite-search.ts).
 */
export function withSecureDelete(db: Database.Database): Database.Database {
  db.pragma('secure_delete = ON');
  return db;
}

/** Beside a read-model database that is being filled from zero; see openReadModelDatabase. */
export const LOADING_MARKER_SUFFIX = '.loading';

type FreshLoad = { file: string; marker: string; synchronous: SqliteSynchronous; finishing?: (() => void)[] };
/** The databases opened for a fresh load that has not finished yet. */
const freshLoads = new WeakMap<Database.Database, FreshLoad>();

/** Thrown when another process is filling the read-model database this one wants to open. */
export class ReadModelsBeingLoadedError extends Error {}

const fsyncPath = (path: string) => {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Opens a read-model database. Read models are derived data: a database that does not exist yet
 * is filled from zero by a replay of the whole log (a first start over an imported log, a
 * rebuild copy), and until that replay has caught up nobody depends on it. Such a fresh database
 * loads in a cheaper mode — its rollback journal in memory, no fsync, and an exclusive lock held
 * by this connection — which skips writing every page twice (WAL, then checkpoint) and about a
 * fifth of the replay's time (bench/replay-throughput.ts). `finishFreshLoad` (called when the
 * projector has caught up) makes the file durable and returns it to WAL with the configured
 * `synchronous`.
 *
 * A crash during the load can leave that file corrupt, so a marker file beside it
 * (`<file>.loading`, written and fsynced before the first page) says "not loaded yet": the next
 * open finds it, deletes the half-loaded database and loads it from zero again (the projector's
 * checkpoints vanish with it). Another process still loading it holds its exclusive lock, so an
 * open then fails with ReadModelsBeingLoadedError instead of deleting its work.
 */
export function openReadModelDatabase(file: string, synchronous: SqliteSynchronous = 'normal'): Database.Database {
  if (file === ':memory:') return withSecureDelete(openSqlite(file, synchronous));
  const marker = file + LOADING_MARKER_SUFFIX;
  if (existsSync(marker)) discardInterruptedLoad(file, marker);
  if (existsSync(file)) return withSecureDelete(openSqlite(file, synchronous));

  mkdirOwnerOnly(dirname(file));
  writeFileSync(marker, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }) + '\n', { mode: OWNER_ONLY_FILE_MODE });
  fsyncPath(marker);
  touchOwnerOnly(file);
  fsyncPath(dirname(file));
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    // Kept from the first write on until finishFreshLoad: no other connection reads a half-loaded
    // database, and none can mistake the marker for a crashed load while this one is alive.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -65536'); // 64 MiB, as openSqlite
    db.pragma('foreign_keys = ON');
    withSecureDelete(db);
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    db.close();
    throw error;
  }
  freshLoads.set(db, { file, marker, synchronous });
  return db;
}

/**
 * Opens a read-model database for a process that never fills one from zero (an API process whose
 * projectors run in a worker): in WAL mode as any other, created empty if missing. While another
 * process is filling it (its marker exists, or its exclusive lock refuses the WAL switch) this
 * throws ReadModelsBeingLoadedError; the caller waits and tries again.
 */
export function openSharedReadModelDatabase(file: string, synchronous: SqliteSynchronous = 'normal'): Database.Database {
  if (file === ':memory:') return withSecureDelete(openSqlite(file, synchronous));
  const marker = file + LOADING_MARKER_SUFFIX;
  if (existsSync(marker)) throw new ReadModelsBeingLoadedError(`${file} is being filled from zero by another process (${marker} exists)`);
  try {
    return withSecureDelete(openSqlite(file, synchronous));
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new ReadModelsBeingLoadedError(`${file} is locked by another process (a fresh load in progress)`);
    }
    throw error;
  }
}

/** True while `db` is a fresh read-model database still loading (see openReadModelDatabase). */
export function isFreshLoad(db: Database.Database): boolean {
  return freshLoads.has(db);
}

/**
 * Ends the fresh load of a database opened by openReadModelDatabase (a no-op otherwise): fsyncs
 * the file, removes the marker, and returns the connection to WAL, the shared lock and the
 * configured `synchronous`. Must run between transactions.
 */
export function finishFreshLoad(db: Database.Database): void {
  const load = freshLoads.get(db);
  if (!load) return;
  // Work deferred to the end of the load (whenFreshLoadFinishes), still in the cheap mode.
  for (const hook of load.finishing ?? []) hook();
  freshLoads.delete(db);
  // Every transaction so far is in the file (journal in memory, so nothing else holds it);
  // once it is on disk the marker may go.
  fsyncPath(load.file);
  rmSync(load.marker, { force: true });
  fsyncPath(dirname(load.file));
  db.pragma('locking_mode = NORMAL');
  db.prepare('SELECT count(*) FROM sqlite_master').get(); // releases the exclusive lock
  switchToWal(db);
  db.pragma(`synchronous = ${load.synchronous.toUpperCase()}`);
  db.pragma('wal_autocheckpoint = 10000');
}

/**
 * Runs `hook` when the fresh load of `db` finishes, before the file is made durable (at once when
 * `db` is not loading): for work that costs less done once over the loaded data than row by row
 * during the load (the search index, sqlite-search.ts).
 */
export function whenFreshLoadFinishes(db: Database.Database, hook: () => void): void {
  const load = freshLoads.get(db);
  if (!load) return hook();
  (load.finishing ??= []).push(hook);
}

/** A marker left by a load that stopped: removes the half-loaded files, unless a live process is loading them. */
function discardInterruptedLoad(file: string, marker: string): void {
  if (existsSync(file)) {
    const probe = new Database(file, { timeout: 0 });
    try {
      probe.exec('BEGIN IMMEDIATE; ROLLBACK');
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') {
        throw new ReadModelsBeingLoadedError(`${file} is being filled from zero by another process (${marker} exists); try again when it has caught up.`);
      }
      // Anything else (a corrupt file) is what the marker is for: the file goes.
    } finally {
      probe.close();
    }
  }
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  rmSync(marker, { force: true });
}
