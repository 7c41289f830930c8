import { MongoClient, MongoServerError, type AnyBulkWriteOperation, type Collection, type Db, type Document } from 'mongodb';
import type {
  CollectionSpec,
  Filter,
  FindOptions,
  GlobalPosition,
  ReadStoreBatch,
  ReadStorePort,
  StoredDocument,
} from '@app/application';
import {
  checkSortFields,
  chunkReadStoreBatch,
  decodePosition,
  encodePosition,
  filterConditions,
  integerIdOf,
  MONGODB_LIMITS,
  singleFieldIndexes,
  type StoreLimits,
  UniqueConstraintViolationError,
} from '@app/application';
import { MongoNamespace } from './mongo-namespace';

/** A stored document: the API document plus its id and the position it was written at. */
type Row = { _id: string; _pos: string | null } & Document;
type CheckpointRow = { _id: string; position: string };

/** The base names (a read-model copy adds its suffix, see MongoNamespace). */
export const CHECKPOINTS = '_checkpoints';

// Server error codes (https://www.mongodb.com/docs/manual/reference/error-codes/).
const NAMESPACE_EXISTS = 48;
const INDEX_OPTIONS_CONFLICT = 85;
const INDEX_KEY_SPECS_CONFLICT = 86;
const INDEX_NOT_FOUND = 27;

const NAME = /^[a-z][a-z0-9_]{0,62}$/;
const assertName = (kind: string, name: string) => {
  if (!NAME.test(name)) throw new Error(`invalid ${kind} name: ${name}`);
  return name;
};
/** The base name of a read-model collection's MongoDB collection. */
export const collectionName = (collection: string) => `rm_${assertName('collection', collection)}`;

/** Reads return the document as it was put: without the storage fields. */
const WITHOUT_STORAGE_FIELDS = { projection: { _id: 0, _pos: 0 } } as const;

/** `$in: []` matches no document: the translation of a comparison that can never hold. */
const MATCH_NOTHING: Document = { _id: { $in: [] } };

const isServerError = (error: unknown, ...codes: number[]) => error instanceof MongoServerError && codes.includes(Number(error.code));

/** Same rule as the embedded store: indexed fields hold a scalar or nothing. */
const checkIndexedField = (doc: object, field: string) => {
  const value = (doc as Record<string, unknown>)[field];
  if (value === undefined || value === null) return;
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return;
  throw new Error(`indexed field ${field} must hold a string, number or boolean`);
};

/**
 * The documents are stored as their JSON round trip, like the embedded store stores JSON text: the
 * BSON serializer would otherwise keep Dates as dates and turn `undefined` into null (its
 * ignoreUndefined option defaults to false), and reads would differ between the two adapters.
 */
const toJson = (doc: object): Record<string, unknown> => JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;

export async function ensureCollectionExists(db: Db, name: string): Promise<void> {
  const existing = await db.listCollections({ name }, { nameOnly: true }).toArray();
  if (existing.length > 0) return;
  try {
    await db.createCollection(name);
  } catch (error) {
    if (!isServerError(error, NAMESPACE_EXISTS)) throw error; // created concurrently
  }
}

/**
 * The read store on MongoDB: one collection `rm_<name>` per read-model collection, each document
 * stored as `{ _id: id, _pos: position as a decimal string | null, ...doc }` with a real index per
 * declared field, and projector checkpoints in `_checkpoints`. A batch commits in one
 * multi-document transaction, which needs a replica set (the compose file runs a single-node one).
 *
 * A blue/green copy (MongoReadModelCopies) is the same collections with a suffix: the store's
 * MongoNamespace names them, and a switch renames them over the live names.
 */
export class MongoReadStore implements ReadStorePort {
  private readonly specs = new Map<string, CollectionSpec>();
  /** Transactions of at most 1,000 writes, projector batches of 1,000 events (see StoreLimits). */
  limits: StoreLimits = MONGODB_LIMITS;

  private constructor(
    private readonly client: MongoClient,
    private readonly database: Db,
    /** The collection names (live, or a copy's suffixed ones). */
    readonly namespace: MongoNamespace,
    /** Whether close() closes the client (a store that opened it); copies share their client. */
    private readonly ownsClient: boolean,
  ) {}

  static async connect(uri: string, dbName: string): Promise<MongoReadStore> {
    const client = new MongoClient(uri);
    try {
      await client.connect();
      return await MongoReadStore.open(client, client.db(dbName), new MongoNamespace(), true);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** A store over a connected client (shared: close() leaves it open unless `ownsClient`). */
  static async open(client: MongoClient, db: Db, namespace: MongoNamespace, ownsClient = false): Promise<MongoReadStore> {
    // Collections are created up front so transactions only ever write to existing ones.
    await ensureCollectionExists(db, namespace.of(CHECKPOINTS));
    return new MongoReadStore(client, db, namespace, ownsClient);
  }

  /** The client, for adapters that share this connection and its transactions (the user-message store). */
  get mongoClient(): MongoClient {
    return this.client;
  }

  /** The database, for adapters that share this connection (the id allocator). */
  get db(): Db {
    return this.database;
  }

  private spec(collection: string): CollectionSpec {
    const spec = this.specs.get(collection);
    if (!spec) throw new Error(`collection ${collection} was not ensured`);
    return spec;
  }

  private rows(collection: string): Collection<Row> {
    return this.database.collection<Row>(this.namespace.of(collectionName(collection)));
  }

  private checkpoints(): Collection<CheckpointRow> {
    return this.database.collection<CheckpointRow>(this.namespace.of(CHECKPOINTS));
  }

  async ensureCollection(spec: CollectionSpec): Promise<void> {
    const rows = this.rows(spec.name);
    await ensureCollectionExists(this.database, this.namespace.of(collectionName(spec.name)));
    const fieldTypes = new Map(spec.fields.map((f) => [assertName('field', f.name), f.type]));
    const fieldsOf = (names: string[]) => names.map((n) => assertName('field', n));
    const declared = new Set<string>();
    const create = async (keys: Document, options: { name: string; unique?: boolean; partialFilterExpression?: Document }) => {
      declared.add(options.name);
      try {
        await rows.createIndex(keys, options);
      } catch (error) {
        // An index of that name (or key pattern) already exists with other options: keep it, as
        // the embedded store's CREATE INDEX IF NOT EXISTS does. Re-creating an identical index is
        // already a no-op for createIndex.
        if (!isServerError(error, INDEX_OPTIONS_CONFLICT, INDEX_KEY_SPECS_CONFLICT)) throw error;
      }
    };
    // Unlike the embedded store, nothing needs backfilling: an index covers existing documents.
    for (const field of singleFieldIndexes(spec)) await create({ [assertName('field', field)]: 1 }, { name: `ix_${field}` });
    for (const fields of spec.compoundIndexes ?? []) {
      await create(Object.fromEntries(fieldsOf(fields).map((f) => [f, 1])), { name: `ix_${fields.join('_')}` });
    }
    for (const fields of spec.unique ?? []) {
      await create(
        // Descending keys keep the pattern distinct from the ascending ix_ index on the same fields
        // (two indexes may not share a key pattern); uniqueness does not depend on direction.
        Object.fromEntries(fieldsOf(fields).map((f) => [f, -1])),
        {
          name: `ux_${fields.join('_')}`,
          unique: true,
          // SQLite treats NULLs as distinct in a UNIQUE index, but a MongoDB unique index indexes
          // a missing or null field as null, so only one such document could exist. A partial
          // index over documents whose fields all hold a scalar restores the SQLite behaviour
          // ("the unique constraint only applies to the documents that meet the filter
          // expression"; $type expressions are allowed in partialFilterExpression).
          partialFilterExpression: Object.fromEntries(fieldsOf(fields).map((f) => [f, { $type: ['string', 'number', 'bool'] }])),
        },
      );
    }
    // Indexes the spec no longer declares would still be written by every put, as in the embedded
    // store: they go (another process may have dropped one first).
    for (const index of await rows.indexes()) {
      const name = String(index.name);
      if (!(name.startsWith('ix_') || name.startsWith('ux_')) || declared.has(name)) continue;
      try {
        await rows.dropIndex(name);
      } catch (error) {
        if (!isServerError(error, INDEX_NOT_FOUND)) throw error;
      }
    }
    this.specs.set(spec.name, spec);
  }

  async get<D>(collection: string, id: string): Promise<D | null> {
    this.spec(collection);
    return (await this.rows(collection).findOne({ _id: id }, WITHOUT_STORAGE_FIELDS)) as D | null;
  }

  async getMany<D>(collection: string, ids: string[]): Promise<StoredDocument<D>[]> {
    this.spec(collection);
    if (ids.length === 0) return [];
    const rows = await this.rows(collection).find({ _id: { $in: ids } }).toArray();
    return rows.map(({ _id, _pos, ...doc }) => ({
      id: _id,
      doc: doc as D,
      position: _pos === null || _pos === undefined ? null : decodePosition(_pos as string),
    }));
  }

  /**
   * Translates the port's filter into a MongoDB query with the embedded store's semantics:
   * `null` equality matches null or missing ({ f: null } does both in MongoDB), `$ne` matches
   * documents where the field is null or missing (documented $ne behaviour), `$in` with null
   * also matches missing fields, and an ordering comparison against null matches nothing (in
   * MongoDB `$gte: null` would match null and missing fields, so it is translated explicitly).
   */
  private filter(collection: string, where: Filter | undefined): Document {
    const clauses: Document[] = [];
    for (const condition of filterConditions(this.spec(collection), where)) {
      const key = condition.field === 'id' ? '_id' : condition.field;
      if (condition.op === 'in') clauses.push({ [key]: { $in: condition.values } }); // $in: [] matches nothing, as in SQLite
      else if (condition.value !== null) clauses.push({ [key]: { [`$${condition.op}`]: condition.value } });
      else if (condition.op === 'eq' || condition.op === 'ne') clauses.push({ [key]: { [`$${condition.op}`]: null } });
      else clauses.push(MATCH_NOTHING);
    }
    if (clauses.length === 0) return {};
    return clauses.length === 1 ? clauses[0] : { $and: clauses };
  }

  async find<D>(collection: string, options: FindOptions = {}): Promise<D[]> {
    const filter = this.filter(collection, options.where);
    checkSortFields(this.spec(collection), options.orderBy);
    const sort: Record<string, 1 | -1> = {};
    for (const { field, direction } of options.orderBy ?? []) sort[field === 'id' ? '_id' : field] = direction === 'desc' ? -1 : 1;
    // Ties are broken by id so that limit/offset pages are stable (MongoDB only guarantees a
    // consistent sort order when the sort includes a unique field).
    if (Object.keys(sort).length > 0 && !('_id' in sort)) sort._id = 1;
    // SQLite returns no rows for LIMIT 0, whereas MongoDB reads limit(0) as "no limit".
    if (options.limit === 0) return [];
    let cursor = this.rows(collection).find(filter, WITHOUT_STORAGE_FIELDS);
    if (Object.keys(sort).length > 0) cursor = cursor.sort(sort);
    if (options.offset !== undefined && options.offset > 0) cursor = cursor.skip(options.offset);
    if (options.limit !== undefined && options.limit > 0) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as D[];
  }

  async count(collection: string, where?: Filter): Promise<number> {
    return this.rows(collection).countDocuments(this.filter(collection, where));
  }

  /**
   * One transaction per chunk of at most limits.maxWritesPerTransaction writes, the checkpoints
   * with the last (chunkReadStoreBatch): a catch-up's commit stays within MongoDB's advice of
   * about 1,000 documents and its 60 s transaction lifetime. A live batch is one transaction.
   */
  async commit(batch: ReadStoreBatch): Promise<void> {
    for (const chunk of chunkReadStoreBatch(batch, this.limits.maxWritesPerTransaction)) await this.commitOne(chunk);
  }

  private async commitOne(batch: ReadStoreBatch): Promise<void> {
    // Everything is validated and serialized before the transaction starts.
    const writes = batch.writes.map(({ collection, ops }) => {
      const spec = this.spec(collection);
      const operations: AnyBulkWriteOperation<Row>[] = ops.map((op) => {
        if (op.type === 'delete') return { deleteOne: { filter: { _id: op.id } } };
        // Kept as text here; refused as the embedded store refuses it (CollectionSpec.integerIds).
        if (spec.integerIds && integerIdOf(op.id) === undefined) throw new Error(`${collection} has integer ids; ${JSON.stringify(op.id)} is not one`);
        for (const field of spec.fields) checkIndexedField(op.doc, field.name);
        const doc = toJson(op.doc);
        if ('_id' in doc || '_pos' in doc) throw new Error(`${collection}/${op.id}: _id and _pos are reserved field names`);
        const position = op.position === undefined ? null : encodePosition(op.position);
        const replacement: Row = { _id: op.id, _pos: position, ...doc };
        if (position === null) return { replaceOne: { filter: { _id: op.id }, replacement, upsert: true } };
        // Never replace a document written at a later position (two projectors sharing the store):
        // a pipeline update keeps $$ROOT unless the stored _pos is missing, null or older. The
        // replacement is wrapped in $literal so no string in it is read as an expression.
        const newer = { $or: [{ $eq: [{ $ifNull: ['$_pos', null] }, null] }, { $lt: ['$_pos', position] }] };
        return {
          updateOne: {
            filter: { _id: op.id },
            update: [{ $replaceWith: { $cond: [newer, { $literal: replacement }, '$$ROOT'] } }],
            upsert: true,
          },
        };
      });
      return { name: collection, rows: this.rows(collection), operations };
    });
    const checkpointOps: AnyBulkWriteOperation<CheckpointRow>[] = batch.checkpoints.map(({ name, position }) => ({
      // A checkpoint never moves backwards (padded decimal text compares in numeric order).
      updateOne: {
        filter: { _id: name },
        update: [{ $set: { position: { $cond: [{ $lt: [{ $ifNull: ['$position', ''] }, encodePosition(position)] }, encodePosition(position), '$position'] } } }],
        upsert: true,
      },
    }));
    if (checkpointOps.length === 0 && writes.every((w) => w.operations.length === 0)) return;

    // withTransaction commits when the callback resolves, aborts when it rejects, and re-runs it
    // on TransientTransactionError / UnknownTransactionCommitResult; every operation must carry
    // the session, and they must not run in parallel (driver docs), hence the sequential awaits.
    // The callback is idempotent (replace, delete, set), so re-running it is safe.
    let collection = '';
    try {
      await this.client.withSession((session) =>
        session.withTransaction(async () => {
          for (const { name, rows, operations } of writes) {
            collection = name;
            if (operations.length > 0) await rows.bulkWrite(operations, { session, ordered: true });
          }
          if (checkpointOps.length > 0) await this.checkpoints().bulkWrite(checkpointOps, { session, ordered: true });
        }),
      );
    } catch (error) {
      // 11000: duplicate key (a unique index); the transaction was aborted, nothing applied.
      if ((error as { code?: number }).code === 11000) throw new UniqueConstraintViolationError(collection, error);
      throw error;
    }
  }

  async getCheckpoint(name: string): Promise<GlobalPosition | undefined> {
    const row = await this.checkpoints().findOne({ _id: name });
    return row ? decodePosition(row.position) : undefined;
  }

  async getCheckpoints(): Promise<Record<string, GlobalPosition>> {
    const rows = await this.checkpoints().find({}).toArray();
    return Object.fromEntries(rows.map((r) => [r._id, decodePosition(r.position)]));
  }

  async dropCollection(collection: string): Promise<void> {
    // Collection.drop() resolves false when the collection does not exist (the driver swallows
    // NamespaceNotFound), so dropping twice is fine.
    await this.rows(collection).drop();
    this.specs.delete(collection);
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await this.checkpoints().deleteOne({ _id: name });
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    try {
      await this.database.command({ ping: 1 });
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }

  /** The collections this store has ensured (read-model names). */
  ensuredCollections(): string[] {
    return [...this.specs.keys()];
  }

  async close(): Promise<void> {
    // A store that opened the client closes it (the id allocator shares it); a store over a
    // shared client (the read-model copies) leaves it to whoever opened it.
    if (this.ownsClient) await this.client.close();
  }
}
