import type Database from 'better-sqlite3';
import type {
  CollectionSpec,
  Filter,
  FilterCondition,
  FindOptions,
  GlobalPosition,
  IndexedValue,
  ReadStoreBatch,
  ReadStorePort,
  StoredDocument,
  WriteOperation,
} from '@app/application';
import { checkSortFields, decodePosition, encodePosition, filterConditions, integerIdOf, singleFieldIndexes, UniqueConstraintViolationError } from '@app/application';
import { finishFreshLoad } from './sqlite';

const SQL_OPERATORS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

const NAME = /^[a-z][a-z0-9_]{0,62}$/;
const assertName = (kind: string, name: string) => {
  if (!NAME.test(name)) throw new Error(`invalid ${kind} name: ${name}`);
  return name;
};
const table = (collection: string) => `rm_${assertName('collection', collection)}`;
const column = (field: string) => `f_${assertName('field', field)}`;

/** SQLite has no boolean: indexed booleans are stored and compared as 0 / 1. */
const sqlValue = (value: IndexedValue | undefined): string | number | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
};

const fieldValue = (doc: object, field: string): string | number | null => {
  const value = (doc as Record<string, unknown>)[field];
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return sqlValue(value);
  throw new Error(`indexed field ${field} must hold a string, number or boolean`);
};

/** Puts into one empty collection from which on its indexes are built after the rows are loaded. */
const BULK_LOAD_ROWS = 2000;

/** Change stamps are drawn from one counter, so no two stores or collections ever share one. */
let lastStamp = 0;
const nextStamp = () => ++lastStamp;

/**
 * Changes (commits, collections ensured or dropped) of every SqliteReadStore of this process, each
 * on its own connection: another connection's change in this process ends the reuse of a
 * `data_version` read (see changeStamp).
 */
let changesInProcess = 0;

/** A table's key: the id as text, or its number where the table is keyed by integer ids. */
type Key = string | number;

type WriteStatements = {
  spec: CollectionSpec;
  /** The table's key (see keyOf): the document ids' numbers, or the ids themselves. */
  integerKeys: boolean;
  upsert: Database.Statement;
  insert: Database.Statement;
  del: Database.Statement;
  /** UPDATE statements by the mask of indexed columns they set. */
  updates: Map<number, Database.Statement>;
};

/**
 * The embedded read store: one SQLite table per collection, holding the JSON document plus one real
 * column per indexed field with a real index, so queries never scan JSON.
 */
export class SqliteReadStore implements ReadStorePort {
  private readonly specs = new Map<string, CollectionSpec>();
  private readonly statementCache = new Map<string, Database.Statement>();
  private readonly writers = new Map<string, WriteStatements>();
  /** Collections whose table is keyed by the ids' numbers (CollectionSpec.integerIds; see ensureCollection). */
  private readonly integerKeyed = new Set<string>();
  /** See changeStamp: per collection, this process's last commit to it; for all, the last foreign commit seen. */
  private readonly collectionStamps = new Map<string, number>();
  private foreignStamp = nextStamp();
  private readonly dataVersion: Database.Statement<[], number>;
  private lastDataVersion: number;
  /** lastDataVersion was read in this turn of the event loop (see changeStamp), after this many changes in the process. */
  private versionFresh = false;
  private versionChanges = 0;
  private readonly forgetVersion = () => {
    this.versionFresh = false;
  };
  /** Queued as a microtask: its tick runs once the turn's microtasks (and those they queue) have run. */
  private readonly forgetVersionAfterTurn = () => process.nextTick(this.forgetVersion);

  constructor(private readonly db: Database.Database) {
    db.exec('CREATE TABLE IF NOT EXISTS checkpoints (name TEXT PRIMARY KEY, position TEXT NOT NULL)');
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.lastDataVersion = this.dataVersion.get() as number;
  }

  /**
   * This connection's commits to a collection draw a new stamp for it (commit, ensureCollection,
   * dropCollection); `PRAGMA data_version`, which changes exactly when another connection (another
   * process on this data directory) committed, draws a new stamp for every collection. The
   * answer is the newer of the two, so it changes whenever either does. Every stamp is drawn
   * from one counter, so the newest of several collections' stamps also changes whenever any of
   * them does: several collections cost one `PRAGMA data_version` (a few microseconds, a tenth of
   * an authenticated trivial request when asked once per document; issue #23).
   *
   * `data_version` is read at most once per turn of the event loop: one callback (a request's
   * data, a timer) and the ticks and microtasks it queues, up to the next callback. A send asks
   * twice in one turn (authentication, then its facts); the second answer is the first's (about
   * 4 % of a send's CPU went to these reads; issue #23). Nothing from outside reaches a turn
   * after it began but through reads of the stores themselves: a request answered in it arrived
   * before it began, a wake-up of the change watcher is a turn of its own. So a commit of another
   * process that a turn's second check misses is one that no caller of it can know of, except by
   * reading this database's checkpoints (a read-your-writes wait that finds them already moved):
   * reading them ends the reuse, as does a change by another read store of this process (a worker
   * and API applications in one test process), so the next check reads `data_version` again.
   */
  changeStamp(collection: string | readonly string[]): number {
    if (!this.versionFresh || this.versionChanges !== changesInProcess) {
      const version = this.dataVersion.get() as number;
      if (version !== this.lastDataVersion) {
        this.lastDataVersion = version;
        this.foreignStamp = nextStamp();
      }
      this.versionChanges = changesInProcess;
      if (!this.versionFresh) {
        this.versionFresh = true;
        // A promise's reaction rather than queueMicrotask, which wraps each callback in an AsyncResource.
        void Promise.resolve().then(this.forgetVersionAfterTurn);
      }
    }
    let stamp = this.foreignStamp;
    if (typeof collection === 'string') return Math.max(stamp, this.collectionStamps.get(collection) ?? 0);
    for (const name of collection) stamp = Math.max(stamp, this.collectionStamps.get(name) ?? 0);
    return stamp;
  }

  private changed(collection: string): void {
    this.collectionStamps.set(collection, nextStamp());
    changesInProcess++;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statementCache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statementCache.set(sql, statement);
    }
    return statement;
  }

  private spec(collection: string): CollectionSpec {
    const spec = this.specs.get(collection);
    if (!spec) throw new Error(`collection ${collection} was not ensured`);
    return spec;
  }

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    const name = table(spec.name);
    this.db.transaction(() => {
      // Integer ids are the rowid: ids that grow append to the table. Other ids are the key of a
      // table WITHOUT ROWID (one b-tree less to maintain per write). A table made before
      // CollectionSpec.integerIds existed keeps its text keys (a rebuild makes it anew).
      if (spec.integerIds) this.db.exec(`CREATE TABLE IF NOT EXISTS ${name} (id INTEGER PRIMARY KEY, doc TEXT NOT NULL, position TEXT)`);
      else this.db.exec(`CREATE TABLE IF NOT EXISTS ${name} (id TEXT PRIMARY KEY, doc TEXT NOT NULL, position TEXT) WITHOUT ROWID`);
      const created = this.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(name) as string;
      if (/\(id INTEGER PRIMARY KEY,/.test(created)) this.integerKeyed.add(spec.name);
      else this.integerKeyed.delete(spec.name);
      const existing = new Set((this.db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).map((c) => c.name));
      for (const field of spec.fields) {
        const col = column(field.name);
        if (existing.has(col)) continue;
        this.db.exec(`ALTER TABLE ${name} ADD COLUMN ${col}`);
        // Backfill a field added to an existing collection from the stored documents.
        const extract = field.type === 'boolean'
          ? `CASE json_extract(doc, '$.${field.name}') WHEN 1 THEN 1 WHEN 0 THEN 0 ELSE NULL END`
          : `json_extract(doc, '$.${field.name}')`;
        this.db.exec(`UPDATE ${name} SET ${col} = ${extract}`);
      }
      const declared = new Set<string>();
      for (const field of singleFieldIndexes(spec)) {
        declared.add(`ix_${name}_${field}`);
        this.db.exec(`CREATE INDEX IF NOT EXISTS ix_${name}_${field} ON ${name} (${column(field)})`);
      }
      for (const fields of spec.compoundIndexes ?? []) {
        declared.add(`ix_${name}_${fields.join('_')}`);
        this.db.exec(`CREATE INDEX IF NOT EXISTS ix_${name}_${fields.join('_')} ON ${name} (${fields.map(column).join(', ')})`);
      }
      for (const fields of spec.unique ?? []) {
        declared.add(`ux_${name}_${fields.join('_')}`);
        this.db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS ux_${name}_${fields.join('_')} ON ${name} (${fields.map(column).join(', ')})`);
      }
      // Indexes of this table that the spec no longer declares (a field that lost its index, or
      // left the spec) would still be written by every put: they go. Their columns stay, unread.
      for (const { name: index } of this.indexesOf(name)) {
        if ((index.startsWith(`ix_${name}_`) || index.startsWith(`ux_${name}_`)) && !declared.has(index)) this.db.exec(`DROP INDEX ${index}`);
      }
    })();
    this.specs.set(spec.name, spec);
    this.writers.delete(spec.name);
    this.changed(spec.name);
  }

  /**
   * The key of a document id in the collection's table: the id itself, or its number where the
   * table is keyed by integer ids (undefined for an id that is not one: no row has it).
   */
  private keyOf(collection: string, id: string): Key | undefined {
    return this.integerKeyed.has(collection) ? integerIdOf(id) : id;
  }

  /** keyOf for a put: in a collection of integer ids (whatever its table's key), any other id is the writer's error. */
  private writeKey(collection: string, prepared: WriteStatements, id: string): Key {
    if (!prepared.spec.integerIds && !prepared.integerKeys) return id;
    const key = integerIdOf(id);
    if (key === undefined) throw new Error(`${collection} has integer ids; ${JSON.stringify(id)} is not one`);
    return prepared.integerKeys ? key : id;
  }

  async get<D>(collection: string, id: string): Promise<D | null> {
    this.spec(collection);
    const key = this.keyOf(collection, id);
    if (key === undefined) return null;
    const row = this.statement(`SELECT doc FROM ${table(collection)} WHERE id = ?`).get(key) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as D) : null;
  }

  async getMany<D>(collection: string, ids: string[]): Promise<StoredDocument<D>[]> {
    this.spec(collection);
    const result: StoredDocument<D>[] = [];
    const keys: Key[] = [];
    for (const id of ids) {
      const key = this.keyOf(collection, id);
      if (key !== undefined) keys.push(key);
    }
    // SQLite limits bound parameters; 512 per query stays far below it. A chunk is padded to a
    // power of two (repeating its last id) so a few cached statements serve every size.
    for (let i = 0; i < keys.length; i += 512) {
      const chunk = keys.slice(i, i + 512);
      let size = 1;
      while (size < chunk.length) size *= 2;
      while (chunk.length < size) chunk.push(chunk[chunk.length - 1]);
      const rows = this.statement(`SELECT id, doc, position FROM ${table(collection)} WHERE id IN (${chunk.map(() => '?').join(',')})`)
        .all(chunk) as { id: Key; doc: string; position: string | null }[];
      for (const row of rows) {
        result.push({ id: String(row.id), doc: JSON.parse(row.doc) as D, position: row.position === null ? null : decodePosition(row.position) });
      }
    }
    return result;
  }

  private where(collection: string, filter: Filter | undefined): { sql: string; params: (string | number | null)[] } {
    const clauses: string[] = [];
    const params: (string | number | null)[] = [];
    for (let condition of filterConditions(this.spec(collection), filter)) {
      const col = condition.field === 'id' ? 'id' : column(condition.field);
      if (col === 'id' && this.integerKeyed.has(collection)) condition = this.integerIdCondition(condition);
      if (condition.op === 'in') {
        const values = condition.values.filter((v) => v !== null);
        const parts: string[] = [];
        if (values.length > 0) {
          parts.push(`${col} IN (${values.map(() => '?').join(',')})`);
          params.push(...values.map(sqlValue));
        }
        if (condition.values.includes(null)) parts.push(`${col} IS NULL`);
        clauses.push(parts.length > 0 ? `(${parts.join(' OR ')})` : '0');
      } else if (condition.value === null) {
        if (condition.op === 'eq') clauses.push(`${col} IS NULL`);
        else if (condition.op === 'ne') clauses.push(`${col} IS NOT NULL`);
        else clauses.push('0'); // ordering comparisons with null match nothing, as in MongoDB
      } else {
        clauses.push(condition.op === 'ne' ? `(${col} IS NULL OR ${col} != ?)` : `${col} ${SQL_OPERATORS[condition.op]} ?`);
        params.push(sqlValue(condition.value));
      }
    }
    return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
  }

  /**
   * A condition on the id of a table keyed by integer ids, on the ids' numbers: an id that is
   * not an integer id is no row's (only eq, ne and in reach here: filterConditions refuses ranges).
   */
  private integerIdCondition(condition: FilterCondition): FilterCondition {
    const keyOf = (value: IndexedValue) => (typeof value === 'string' ? integerIdOf(value) : undefined);
    if (condition.op === 'in') return { ...condition, values: condition.values.map(keyOf).filter((key) => key !== undefined) };
    if (condition.value === null) return condition;
    const key = keyOf(condition.value);
    if (key !== undefined) return { ...condition, value: key };
    // No row has it: eq matches none; ne, every row (`id IS NOT NULL`).
    return condition.op === 'ne' ? { field: 'id', op: 'ne', value: null } : { field: 'id', op: 'in', values: [] };
  }

  async find<D>(collection: string, options: FindOptions = {}): Promise<D[]> {
    const { sql, params } = this.where(collection, options.where);
    checkSortFields(this.spec(collection), options.orderBy);
    const order = (options.orderBy ?? []).map(({ field, direction }) => `${field === 'id' ? 'id' : column(field)} ${direction === 'desc' ? 'DESC' : 'ASC'}`);
    let query = `SELECT doc FROM ${table(collection)} ${sql}`;
    if (order.length > 0) query += ` ORDER BY ${order.join(', ')}`;
    if (options.limit !== undefined || options.offset !== undefined) {
      query += ' LIMIT ? OFFSET ?';
      params.push(options.limit ?? -1, options.offset ?? 0);
    }
    const rows = this.statement(query).all(...params) as { doc: string }[];
    return rows.map((row) => JSON.parse(row.doc) as D);
  }

  async count(collection: string, where?: Filter): Promise<number> {
    const { sql, params } = this.where(collection, where);
    const row = this.statement(`SELECT count(*) AS n FROM ${table(collection)} ${sql}`).get(...params) as { n: number };
    return row.n;
  }

  /** The statements a commit uses for one collection (reset when its columns change). */
  private writeStatements(collection: string): WriteStatements {
    let prepared = this.writers.get(collection);
    if (prepared) return prepared;
    const spec = this.spec(collection);
    const name = table(collection);
    const cols = spec.fields.map((f) => column(f.name));
    const columns = `id, doc, position${cols.map((c) => `, ${c}`).join('')}`;
    const values = `?, ?, ?${cols.map(() => ', ?').join('')}`;
    prepared = {
      spec,
      integerKeys: this.integerKeyed.has(collection),
      upsert: this.db.prepare(
        `INSERT INTO ${name} (${columns}) VALUES (${values})
         ON CONFLICT (id) DO UPDATE SET doc = excluded.doc, position = excluded.position${cols.map((c) => `, ${c} = excluded.${c}`).join('')}
         WHERE excluded.position IS NULL OR position IS NULL OR position < excluded.position`,
      ),
      insert: this.db.prepare(`INSERT INTO ${name} (${columns}) VALUES (${values}) ON CONFLICT (id) DO NOTHING`),
      del: this.db.prepare(`DELETE FROM ${name} WHERE id = ?`),
      updates: new Map(),
    };
    this.writers.set(collection, prepared);
    return prepared;
  }

  /**
   * `UPDATE` of the document, its position and only the indexed columns in `changed` (a bit mask
   * over the fields): SQLite rewrites the entries of every index whose column is SET, changed or
   * not. The other columns must still hold the values the writer loaded, or nothing is updated.
   */
  private updateStatement(collection: string, prepared: WriteStatements, changed: number): Database.Statement {
    let statement = prepared.updates.get(changed);
    if (!statement) {
      const cols = prepared.spec.fields.map((f) => column(f.name));
      const set = cols.filter((_, i) => changed & (1 << i)).map((c) => `, ${c} = ?`).join('');
      const same = cols.filter((_, i) => !(changed & (1 << i))).map((c) => ` AND ${c} IS ?`).join('');
      statement = this.db.prepare(
        `UPDATE ${table(collection)} SET doc = ?, position = ?${set}
         WHERE id = ? AND (? IS NULL OR position IS NULL OR position < ?)${same}`,
      );
      prepared.updates.set(changed, statement);
    }
    return statement;
  }

  /**
   * Writes a document. With the writer's `previous` hint, a new document is a plain insert and a
   * known one an update of what changed; when the hint turns out stale (the row exists after all,
   * is gone, is newer, or its indexed columns differ) nothing was written and the full upsert runs.
   */
  private put(collection: string, prepared: WriteStatements, op: Extract<WriteOperation, { type: 'put' }>): void {
    const { fields } = prepared.spec;
    const key = this.writeKey(collection, prepared, op.id);
    const json = JSON.stringify(op.doc);
    const position = op.position === undefined ? null : encodePosition(op.position);
    const values: (string | number | null)[] = new Array(fields.length);
    for (let i = 0; i < fields.length; i++) values[i] = fieldValue(op.doc, fields[i].name);
    const previous = op.previous;
    if (previous === null) {
      if (prepared.insert.run(key, json, position, values).changes > 0) return;
    } else if (previous !== undefined && fields.length <= 30) {
      let changed = 0;
      const set: (string | number | null)[] = [];
      const same: (string | number | null)[] = [];
      for (let i = 0; i < fields.length; i++) {
        const before = fieldValue(previous, fields[i].name);
        if (before === values[i]) same.push(before);
        else {
          changed |= 1 << i;
          set.push(values[i]);
        }
      }
      if (this.updateStatement(collection, prepared, changed).run(json, position, set, key, position, position, same).changes > 0) return;
    }
    prepared.upsert.run(key, json, position, values);
  }

  /** The indexes of a table that were created by a statement (not those of its key): name and SQL. */
  private indexesOf(table: string): { name: string; sql: string }[] {
    return this.statement(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`).all(table) as { name: string; sql: string }[];
  }

  /**
   * A large batch into an empty collection (a replay from zero) loads the rows first and builds
   * the indexes after, inside the same transaction (so no reader ever sees the table without
   * them): one sort per index instead of a B-tree insert per row. Returns the statements that
   * recreate the dropped indexes.
   */
  private dropIndexesIfEmpty(collection: string): string[] {
    const name = table(collection);
    if (this.statement(`SELECT 1 FROM ${name} LIMIT 1`).get() !== undefined) return [];
    const indexes = this.indexesOf(name);
    for (const index of indexes) this.db.exec(`DROP INDEX ${index.name}`);
    return indexes.map((index) => index.sql);
  }

  async commit(batch: ReadStoreBatch): Promise<void> {
    const writes = batch.writes.map(({ collection, ops }) => ({ collection, ops, prepared: this.writeStatements(collection) }));
    // Usually every projection moves to the same position: one statement for all of them.
    const setCheckpoints = this.statement(
      `INSERT INTO checkpoints (name, position) SELECT value, ? FROM json_each(?) WHERE true
       ON CONFLICT (name) DO UPDATE SET position = excluded.position WHERE position < excluded.position`,
    );
    const checkpointsAt = new Map<bigint, string[]>();
    for (const { name, position } of batch.checkpoints) {
      const names = checkpointsAt.get(position);
      if (names) names.push(name);
      else checkpointsAt.set(position, [name]);
    }
    let collection = '';
    try {
      this.db.transaction(() => {
        for (const write of writes) {
          collection = write.collection;
          const { prepared, ops } = write;
          const deferred = ops.length >= BULK_LOAD_ROWS ? this.dropIndexesIfEmpty(collection) : [];
          for (const op of ops) {
            if (op.type === 'put') this.put(collection, prepared, op);
            else {
              // An id the table cannot hold is no row's: nothing to delete.
              const key = prepared.integerKeys ? integerIdOf(op.id) : op.id;
              if (key !== undefined) prepared.del.run(key);
            }
          }
          // A unique index that the loaded rows break fails here, rolling the whole batch back.
          for (const sql of deferred) this.db.exec(sql);
        }
        for (const [position, names] of checkpointsAt) setCheckpoints.run(encodePosition(position), JSON.stringify(names));
      }).immediate();
    } catch (error) {
      // The driver's error class comes from the realm that first loaded the native addon, so
      // match on its code, not its class.
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new UniqueConstraintViolationError(collection, error);
      throw error;
    } finally {
      // The transaction ran synchronously: no reader ran during it, every later one sees a new stamp.
      for (const write of writes) this.changed(write.collection);
    }
  }

  async getCheckpoint(name: string): Promise<GlobalPosition | undefined> {
    this.versionFresh = false; // what it reads may show another process's commit: see changeStamp
    const row = this.statement('SELECT position FROM checkpoints WHERE name = ?').get(name) as { position: string } | undefined;
    return row ? decodePosition(row.position) : undefined;
  }

  async getCheckpoints(): Promise<Record<string, GlobalPosition>> {
    this.versionFresh = false; // see getCheckpoint
    const rows = this.statement('SELECT name, position FROM checkpoints').all() as { name: string; position: string }[];
    return Object.fromEntries(rows.map((r) => [r.name, decodePosition(r.position)]));
  }

  async dropCollection(collection: string): Promise<void> {
    this.db.exec(`DROP TABLE IF EXISTS ${table(collection)}`);
    this.changed(collection);
    this.specs.delete(collection);
    this.integerKeyed.delete(collection);
    this.writers.delete(collection);
    for (const key of [...this.statementCache.keys()]) if (key.includes(table(collection))) this.statementCache.delete(key);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    this.statement('DELETE FROM checkpoints WHERE name = ?').run(name);
  }

  /** Ends the fresh load of a database opened by openReadModelDatabase (a no-op otherwise). */
  async caughtUp(): Promise<void> {
    finishFreshLoad(this.db);
  }

  async health() {
    try {
      this.statement('SELECT 1').get();
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    // The connection is owned by the module that opened it.
  }
}
