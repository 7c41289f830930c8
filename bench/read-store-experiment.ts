/**
 * EXPERIMENT, not product code: a SqliteReadStore whose commit leaves unchanged indexed columns
 * alone. The product's commit upserts every indexed column on every write, and SQLite then
 * deletes and re-inserts the entry in every index of the collection even when the value did not
 * change. Replays mostly change non-indexed fields (a name, a role, an API key), so this variant
 * reads the stored indexed values first and writes only what changed.
 *
 * With `index-cache` it also remembers the indexed values it wrote, so it never reads them back
 * (a replay from zero then issues no SELECT in commit at all).
 *
 * Used by `replay-throughput --experiment diff-index-columns[,index-cache]` to measure the
 * proposed fixes without touching libs/. It reaches into the base class's private members on purpose.
 */
import type Database from 'better-sqlite3';
import {
  type CollectionSpec,
  encodePosition,
  type GlobalPosition,
  type ReadStoreBatch,
  type ReadStorePort,
  type StoredDocument,
  type WriteOperation,
} from '@app/application';
import { SqliteReadStore } from '@app/infrastructure/embedded/sqlite-read-store';

type Cell = string | number | null;

const toCell = (value: unknown): Cell => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new Error('indexed fields must hold a string, number or boolean');
};

export class DiffingSqliteReadStore extends SqliteReadStore {
  private readonly connection: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();
  /** With `indexCache`: the indexed values of every row this store wrote, so no SELECT is needed. */
  private readonly indexed = new Map<string, Map<string, Cell[] | null>>();

  constructor(
    db: Database.Database,
    private readonly options: { diff: boolean; indexCache?: boolean },
  ) {
    super(db);
    this.connection = db;
  }

  private prepared(sql: string, raw = false): Database.Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      if (raw) statement.raw(true);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  override async commit(batch: ReadStoreBatch): Promise<void> {
    if (!this.options.diff) return super.commit(batch);
    const specs = (this as unknown as { specs: Map<string, CollectionSpec> }).specs;
    const writes = batch.writes.map(({ collection, ops }) => {
      const spec = specs.get(collection);
      if (!spec) throw new Error(`collection ${collection} was not ensured`);
      const table = `rm_${collection}`;
      const cols = spec.fields.map((f) => `f_${f.name}`);
      return {
        table,
        spec,
        cols,
        ops,
        select: this.prepared(`SELECT ${['1', ...cols].join(', ')} FROM ${table} WHERE id = ?`, true),
        insert: this.prepared(
          `INSERT INTO ${table} (${['id', 'doc', 'position', ...cols].join(', ')}) VALUES (${['?', '?', '?', ...cols.map(() => '?')].join(', ')})`,
        ),
        del: this.prepared(`DELETE FROM ${table} WHERE id = ?`),
      };
    });
    const learned: [Map<string, Cell[] | null>, string, Cell[] | null][] = [];
    const setCheckpoint = this.prepared(
      'INSERT INTO checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position',
    );
    this.connection
      .transaction(() => {
        for (const { table, spec, cols, ops, select, insert, del } of writes) {
          let known = this.indexed.get(table);
          if (!known) this.indexed.set(table, (known = new Map()));
          for (const op of ops) {
            if (op.type === 'delete') {
              del.run(op.id);
              if (this.options.indexCache) learned.push([known, op.id, null]);
              continue;
            }
            const doc = JSON.stringify(op.doc);
            const position = op.position === undefined ? null : encodePosition(op.position);
            const values = spec.fields.map((f) => toCell((op.doc as Record<string, unknown>)[f.name]));
            if (this.options.indexCache) learned.push([known, op.id, values]);
            const cached = this.options.indexCache ? known.get(op.id) : undefined;
            const stored = cached !== undefined ? cached : ((select.get(op.id) as Cell[] | undefined)?.slice(1) ?? null);
            if (!stored) {
              insert.run(op.id, doc, position, ...values);
              continue;
            }
            const changed: number[] = [];
            for (let i = 0; i < values.length; i++) if (stored[i] !== values[i]) changed.push(i);
            const sets = ['doc = ?', 'position = ?', ...changed.map((i) => `${cols[i]} = ?`)];
            this.prepared(`UPDATE ${table} SET ${sets.join(', ')} WHERE id = ?`).run(doc, position, ...changed.map((i) => values[i]), op.id);
          }
        }
        for (const { name, position } of batch.checkpoints) setCheckpoint.run(name, encodePosition(position));
      })
      .immediate();
    // Only after the commit succeeded.
    for (const [known, id, values] of learned) known.set(id, values);
  }
}

/**
 * EXPERIMENT: a write-behind decorator for catch-up. Commits are merged in memory (last write per
 * document wins, checkpoints advance together) and written in one transaction every `flushOps`
 * document writes; reads of documents written in this run are served from memory. A replay from
 * zero then writes each document once and reads nothing back. `flush()` writes what is pending
 * (the benchmark calls it after catch-up and counts its time).
 */
export class WriteBehindReadStore {
  private readonly pending = new Map<string, Map<string, WriteOperation>>();
  private readonly written = new Map<string, Map<string, StoredDocument<object> | null>>();
  private checkpoints = new Map<string, GlobalPosition>();
  private pendingOps = 0;

  constructor(
    private readonly inner: ReadStorePort,
    private readonly flushOps: number,
  ) {}

  /** The decorated port: every method but getMany and commit goes to the inner store. */
  port(): ReadStorePort {
    return new Proxy(this.inner, {
      get: (target, key, receiver) => {
        if (key === 'getMany') return this.getMany.bind(this);
        if (key === 'commit') return this.commit.bind(this);
        if (key === 'getCheckpoints') return this.getCheckpoints.bind(this);
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  private async getMany<D>(collection: string, ids: string[]): Promise<StoredDocument<D>[]> {
    const known = this.written.get(collection);
    const found: StoredDocument<D>[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const doc = known?.get(id);
      if (doc === undefined) missing.push(id);
      else if (doc !== null) found.push(doc as StoredDocument<D>);
    }
    if (missing.length > 0) found.push(...(await this.inner.getMany<D>(collection, missing)));
    return found;
  }

  private async getCheckpoints(): Promise<Record<string, GlobalPosition>> {
    return { ...(await this.inner.getCheckpoints()), ...Object.fromEntries(this.checkpoints) };
  }

  private async commit(batch: ReadStoreBatch): Promise<void> {
    for (const { collection, ops } of batch.writes) {
      let pending = this.pending.get(collection);
      if (!pending) this.pending.set(collection, (pending = new Map()));
      let known = this.written.get(collection);
      if (!known) this.written.set(collection, (known = new Map()));
      for (const op of ops) {
        if (!pending.has(op.id)) this.pendingOps++;
        pending.set(op.id, op);
        known.set(op.id, op.type === 'delete' ? null : { id: op.id, doc: op.doc, position: op.position ?? null });
      }
    }
    for (const { name, position } of batch.checkpoints) this.checkpoints.set(name, position);
    if (this.pendingOps >= this.flushOps) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pendingOps === 0 && this.checkpoints.size === 0) return;
    const writes = [...this.pending].map(([collection, ops]) => ({ collection, ops: [...ops.values()] }));
    const checkpoints = [...this.checkpoints].map(([name, position]) => ({ name, position }));
    await this.inner.commit({ writes, checkpoints });
    this.pending.clear();
    this.checkpoints.clear();
    this.pendingOps = 0;
  }
}
