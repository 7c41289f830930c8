import type Database from 'better-sqlite3';
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ReadModelChangesPort } from '@app/application';

type Watched = { db: Database.Database; file: string; dataVersion: Database.Statement<[], number>; last: number };

/**
 * Tells this process when another process committed to one of the given SQLite databases (the
 * worker's projector moving the read models' checkpoints, an API process appending events).
 *
 * The trigger is a watch on the databases' directory (inotify on Linux): every commit writes the
 * `-wal` file, which reports a change at once. Each trigger is confirmed with
 * `PRAGMA data_version` on this process's own connection, which changes exactly when another
 * connection committed, so this process's own writes wake nobody. While listeners are waiting,
 * the same cheap check also runs every `fallbackPollMs`, for file systems that report no changes
 * (network mounts) — a fallback, never the main path.
 */
export class SqliteChangeWatcher implements ReadModelChangesPort {
  private readonly watched: Watched[];
  private readonly listeners = new Set<() => void>();
  private watchers: FSWatcher[] | undefined;
  private fallback: NodeJS.Timeout | undefined;
  private recheck: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    databases: { db: Database.Database; file: string }[],
    private readonly options: { fallbackPollMs: number; onError?: (error: unknown) => void } = { fallbackPollMs: 100 },
  ) {
    this.watched = databases
      .filter(({ file }) => file !== ':memory:')
      .map(({ db, file }) => {
        const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
        return { db, file, dataVersion, last: dataVersion.get() as number };
      });
  }

  onChange(listener: () => void): () => void {
    if (this.closed) return () => undefined;
    this.startWatching();
    this.listeners.add(listener);
    if (!this.fallback && this.watched.length > 0) {
      this.fallback = setInterval(() => this.check(), this.options.fallbackPollMs);
      this.fallback.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.fallback) {
        clearInterval(this.fallback);
        this.fallback = undefined;
      }
    };
  }

  /** Notifies the listeners if another connection committed to any database since the last check. */
  check(): boolean {
    let changed = false;
    for (const entry of this.watched) {
      if (!entry.db.open) continue;
      let version: number;
      try {
        version = entry.dataVersion.get() as number;
      } catch (error) {
        // A database busy with another process's checkpoint: the next trigger checks again.
        this.options.onError?.(error);
        continue;
      }
      if (version !== entry.last) {
        entry.last = version;
        changed = true;
      }
    }
    if (changed) for (const listener of [...this.listeners]) listener();
    return changed;
  }

  /**
   * The watch may report the WAL's frames being written a moment before the commit is visible to
   * readers: a trigger that finds nothing new looks once more shortly after.
   */
  private triggered(): void {
    if (this.check() || this.recheck) return;
    this.recheck = setTimeout(() => {
      this.recheck = undefined;
      this.check();
    }, 2);
    this.recheck.unref();
  }

  /** One watch per directory, kept for the life of the process (cheap; listeners come and go). */
  private startWatching(): void {
    if (this.watchers) return;
    this.watchers = [];
    const byDir = new Map<string, Set<string>>();
    for (const { file } of this.watched) {
      const names = byDir.get(dirname(file)) ?? new Set<string>();
      names.add(basename(file));
      names.add(`${basename(file)}-wal`);
      byDir.set(dirname(file), names);
    }
    for (const [dir, names] of byDir) {
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (name === null || names.has(name.toString())) this.triggered();
        });
        watcher.on('error', (error) => this.options.onError?.(error));
        this.watchers.push(watcher);
      } catch (error) {
        // No change events here: the fallback timer alone keeps waiters moving.
        this.options.onError?.(error);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const watcher of this.watchers ?? []) watcher.close();
    this.watchers = [];
    if (this.fallback) clearInterval(this.fallback);
    if (this.recheck) clearTimeout(this.recheck);
    this.fallback = undefined;
    this.listeners.clear();
  }
}
