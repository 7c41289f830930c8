import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { OWNER_ONLY_FILE_MODE } from '@app/application';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import {
  type LiveReadModels,
  type ReadModelCopiesPort,
  type ReadModelCopy,
  type ReadModelLayout,
  type ReadStorePort,
  RoutingReadStore,
  SwitchableUserMessageStore,
} from '@app/application';
import { finishFreshLoad, LOADING_MARKER_SUFFIX, openReadModelDatabase, openSharedReadModelDatabase, type SqliteSynchronous } from './sqlite';
import { SqliteReadStore } from './sqlite-read-store';
import { SqliteUserMessageStore } from './sqlite-user-message-store';

/** Records which SQLite file holds which read models; absent = everything in read-models.sqlite. */
export const READ_MODEL_LAYOUT_FILE = 'read-models.layout.json';
export const DEFAULT_READ_MODELS_FILE = 'read-models.sqlite';
/** The checkpoint of the per-user message state: its store lives in the copy that holds it. */
const USER_MESSAGES_CHECKPOINT = 'user_messages';

export function readModelLayout(dataDir: string): ReadModelLayout {
  const file = join(dataDir, READ_MODEL_LAYOUT_FILE);
  if (!existsSync(file)) return { default: DEFAULT_READ_MODELS_FILE, collections: {}, checkpoints: {} };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as ReadModelLayout;
  return { default: parsed.default, collections: parsed.collections ?? {}, checkpoints: parsed.checkpoints ?? {} };
}

type OpenCopy = ReadModelCopy & { db: Database.Database; sqliteUserMessages: SqliteUserMessageStore };

/**
 * Read-model copies as SQLite files in the data directory. Each copy is a whole read-model
 * database (documents, checkpoints, per-user message state); the layout file says which copy
 * holds which collections, and is replaced atomically (write + rename) at a switch.
 */
export class SqliteReadModelCopies implements ReadModelCopiesPort {
  readonly supported = true;
  private readonly open = new Map<string, OpenCopy>();
  private counter = 0;

  constructor(
    private readonly dataDir: string,
    private readonly synchronous: SqliteSynchronous,
    private readonly options: { freshLoad: boolean } = { freshLoad: true },
  ) {}

  /**
   * Opens the copies of the stored layout and returns the live, switchable stores over them.
   * `freshLoad: false` is for a process that runs no projectors (an API process beside a
   * worker): it never fills a database itself, so it never takes the fresh-load mode's exclusive
   * lock, and it refuses (ReadModelsBeingLoadedError) while the worker is filling one.
   */
  static openLive(dataDir: string, synchronous: SqliteSynchronous, options: { freshLoad: boolean } = { freshLoad: true }): LiveReadModels & { copies: SqliteReadModelCopies } {
    const copies = new SqliteReadModelCopies(dataDir, synchronous, options);
    const layout = readModelLayout(dataDir);
    const labels = new Set([layout.default, ...Object.values(layout.collections), ...Object.values(layout.checkpoints)]);
    const stores = new Map<string, ReadStorePort>();
    for (const label of labels) stores.set(label, copies.openCopy(label).readStore);
    const userMessagesLabel = layout.checkpoints[USER_MESSAGES_CHECKPOINT] ?? layout.default;
    return {
      readStore: new RoutingReadStore(stores, layout),
      userMessages: new SwitchableUserMessageStore(copies.open.get(userMessagesLabel)!.userMessageStore),
      copies,
    };
  }

  private openCopy(label: string): OpenCopy {
    const existing = this.open.get(label);
    if (existing) return existing;
    // A copy that does not exist yet (a rebuild's, or the first start's) loads in the fresh-load mode.
    const file = join(this.dataDir, label);
    const db = this.options.freshLoad ? openReadModelDatabase(file, this.synchronous) : openSharedReadModelDatabase(file, this.synchronous);
    const sqliteUserMessages = new SqliteUserMessageStore(db);
    const copy: OpenCopy = { label, db, readStore: new SqliteReadStore(db), userMessageStore: sqliteUserMessages, sqliteUserMessages };
    this.open.set(label, copy);
    return copy;
  }

  /** The open databases and their files (for a SqliteChangeWatcher). */
  databases(): { db: Database.Database; file: string }[] {
    return [...this.open.values()].map(({ db, label }) => ({ db, file: join(this.dataDir, label) }));
  }

  async create(): Promise<ReadModelCopy> {
    const stamp = new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 15);
    let label: string;
    do label = `read-models-${stamp}-${process.pid}-${++this.counter}.sqlite`;
    while (existsSync(join(this.dataDir, label)));
    return this.openCopy(label);
  }

  async persistLayout(layout: ReadModelLayout): Promise<void> {
    // A copy the next start opens must be durable: none may still be in its fresh-load mode.
    for (const label of [layout.default, ...Object.values(layout.collections), ...Object.values(layout.checkpoints)]) {
      const copy = this.open.get(label);
      if (copy) finishFreshLoad(copy.db);
    }
    const file = join(this.dataDir, READ_MODEL_LAYOUT_FILE);
    writeFileSync(`${file}.tmp`, JSON.stringify(layout, null, 2) + '\n', { mode: OWNER_ONLY_FILE_MODE });
    renameSync(`${file}.tmp`, file);
  }

  async drop(label: string): Promise<void> {
    const copy = this.open.get(label);
    if (copy) {
      this.open.delete(label);
      await copy.sqliteUserMessages.close();
      await copy.readStore.close();
      copy.db.close();
    }
    for (const suffix of ['', '-wal', '-shm', '-journal', LOADING_MARKER_SUFFIX]) rmSync(join(this.dataDir, label + suffix), { force: true });
  }

  async close(): Promise<void> {
    for (const copy of this.open.values()) {
      await copy.sqliteUserMessages.close();
      await copy.readStore.close();
      copy.db.close();
    }
    this.open.clear();
  }
}
