import type { StoreLimits } from './store-limits';
import type { GlobalPosition } from './event-store.port';

/**
 * The read store port: named collections of JSON documents (stored in the shape the API returns),
 * queried only through declared indexed fields, plus one checkpoint per projection.
 * It deliberately speaks no database's query language.
 */
export type IndexedValue = string | number | boolean | null;

export type FieldCondition =
  | IndexedValue
  | { $eq?: IndexedValue; $ne?: IndexedValue; $gt?: IndexedValue; $gte?: IndexedValue; $lt?: IndexedValue; $lte?: IndexedValue; $in?: IndexedValue[] };

/** Conditions on indexed fields, all of which must hold. */
export type Filter = Record<string, FieldCondition>;

export type ComparisonOperator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte';

/** One condition of a filter, normalised: what every adapter translates into its query language. */
export type FilterCondition =
  | { field: string; op: ComparisonOperator; value: IndexedValue }
  | { field: string; op: 'in'; values: IndexedValue[] };

const COMPARISONS: ComparisonOperator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'];

/**
 * Checks that a filter names only `id` and the collection's declared fields, and flattens it
 * into conditions (a bare value means `eq`; `undefined` operands count as null).
 */
export function filterConditions(spec: CollectionSpec, filter: Filter | undefined): FilterCondition[] {
  const known = new Set(spec.fields.map((f) => f.name));
  const conditions: FilterCondition[] = [];
  for (const [field, condition] of Object.entries(filter ?? {})) {
    if (field !== 'id' && !known.has(field)) throw new Error(`${spec.name}.${field} is not an indexed field`);
    if (condition === null || typeof condition !== 'object') {
      conditions.push({ field, op: 'eq', value: condition });
      continue;
    }
    for (const op of COMPARISONS) {
      if (!(`$${op}` in condition)) continue;
      if (field === 'id' && spec.integerIds && op !== 'eq' && op !== 'ne') throw new Error(`${spec.name} has integer ids: a range of ids is not a query it answers`);
      conditions.push({ field, op, value: (condition as Record<string, IndexedValue | undefined>)[`$${op}`] ?? null });
    }
    if (condition.$in !== undefined) conditions.push({ field, op: 'in', values: condition.$in });
  }
  return conditions;
}

/** Checks the fields a query sorts on: `id` or a declared field, and not `id` where ids are integers. */
export function checkSortFields(spec: CollectionSpec, orderBy: readonly SortSpec[] | undefined): void {
  for (const { field } of orderBy ?? []) {
    if (field === 'id') {
      if (spec.integerIds) throw new Error(`${spec.name} has integer ids: their order is not a query it answers`);
    } else if (!spec.fields.some((f) => f.name === field)) throw new Error(`${spec.name}.${field} is not an indexed field`);
  }
}

/** An id as String(n) writes a whole number from 0 to Number.MAX_SAFE_INTEGER (see CollectionSpec.integerIds). */
const INTEGER_ID = /^(0|[1-9][0-9]{0,15})$/;

/** The number of an integer id (CollectionSpec.integerIds); undefined for any other string. */
export function integerIdOf(id: string): number | undefined {
  if (!INTEGER_ID.test(id)) return undefined;
  const n = Number(id);
  return n <= Number.MAX_SAFE_INTEGER ? n : undefined;
}

export type SortSpec = { field: string; direction: 'asc' | 'desc' };

export type FindOptions = { where?: Filter; orderBy?: SortSpec[]; limit?: number; offset?: number };

export type IndexedField = {
  name: string;
  type: 'string' | 'number' | 'boolean';
  /**
   * false: the field can be filtered and sorted on but gets no index of its own — for flags and
   * fields always queried together with an indexed one, where an index would only slow writes.
   * A field that leads a compound or unique index never gets a separate one either.
   */
  index?: boolean;
};

/** The fields that get a single-field index of their own. */
export function singleFieldIndexes(spec: CollectionSpec): string[] {
  const leading = new Set([...(spec.compoundIndexes ?? []), ...(spec.unique ?? [])].map((fields) => fields[0]));
  return spec.fields.filter((f) => f.index !== false && !leading.has(f.name)).map((f) => f.name);
}

export type CollectionSpec = {
  name: string;
  /** Fields of the document that queries may filter and sort on: real columns, indexed (see IndexedField.index). */
  fields: IndexedField[];
  /** Compound indexes (by field names), for queries that filter on one field and sort on another. */
  compoundIndexes?: string[][];
  /** Fields whose combination is unique (optional). */
  unique?: string[][];
  /**
   * Every document id is a whole number as String(n) writes it, from 0 to
   * Number.MAX_SAFE_INTEGER (a message id, say). A store may then key the collection by the
   * number: the embedded store makes it the table's rowid, so that ids that grow are appended
   * at the end of the table, not inserted among text keys, where "10" sorts before "9" and each
   * insert splits a page in the middle of the tree (issue #23). A put of any other id is refused
   * (the batch fails); a get or filter of one finds nothing. Queries may not sort by `id` or ask
   * for a range of ids: their order would depend on the store.
   */
  integerIds?: boolean;
};

/**
 * Positions as read stores keep them: fixed-width decimal text, so that text order is numeric order
 * and a store can refuse, inside the write itself, to move a document or a checkpoint backwards.
 * 40 digits hold any 128-bit position (EventStoreDB's packed commit/prepare pair).
 */
export const encodePosition = (position: bigint): string => position.toString().padStart(40, '0');
export const decodePosition = (text: string): bigint => BigInt(text);

export type StoredDocument<D> = { id: string; doc: D; position: GlobalPosition | null };

export type WriteOperation<D = object> =
  | {
      type: 'put';
      id: string;
      doc: D;
      position?: GlobalPosition;
      /**
       * Optional hint: the stored document this put replaces, as the writer loaded it (null: none
       * was stored). A store may use it to write only what changed (e.g. insert instead of
       * upsert, leave unchanged indexes alone), but must stay correct if it is stale.
       */
      previous?: D | null;
    }
  | { type: 'delete'; id: string };

/** What a projector commits at once: document writes and the checkpoints they advance. */
export type ReadStoreBatch = {
  writes: { collection: string; ops: WriteOperation[] }[];
  checkpoints: { name: string; position: GlobalPosition }[];
};

/** A commit broke a unique index of a collection; nothing of the batch was applied. */
export class UniqueConstraintViolationError extends Error {
  constructor(readonly collection: string, cause?: unknown) {
    super(`unique constraint violated in ${collection}`, { cause });
    this.name = 'UniqueConstraintViolationError';
  }
}

export interface ReadStorePort {
  /** Creates the collection and its indexes if missing (idempotent; called at boot). */
  ensureCollection(spec: CollectionSpec): Promise<void>;

  get<D>(collection: string, id: string): Promise<D | null>;
  getMany<D>(collection: string, ids: string[]): Promise<StoredDocument<D>[]>;
  find<D>(collection: string, options?: FindOptions): Promise<D[]>;
  count(collection: string, where?: Filter): Promise<number>;

  /**
   * Applies every write and checkpoint of the batch atomically; UniqueConstraintViolationError if it
   * breaks a unique index. (A store with `limits` applies a batch of more than
   * limits.maxWritesPerTransaction writes in several transactions, the checkpoints with the last:
   * see chunkReadStoreBatch.) A put never replaces a document written at a later position, and a
   * checkpoint never moves backwards, so two projectors sharing a store cannot undo each other.
   */
  commit(batch: ReadStoreBatch): Promise<void>;

  getCheckpoint(name: string): Promise<GlobalPosition | undefined>;
  getCheckpoints(): Promise<Record<string, GlobalPosition>>;

  /** Removes every document of a collection and the named checkpoints (used by rebuilds and tests). */
  dropCollection(collection: string): Promise<void>;
  deleteCheckpoint(name: string): Promise<void>;

  /**
   * Told by a projector once it has applied everything the log held (the end of a replay). A
   * store that fills a fresh database in a cheaper, less durable mode returns to its normal mode
   * here (the embedded store: see openReadModelDatabase). Optional; idempotent.
   */
  caughtUp?(): Promise<void>;

  /**
   * A number that changes whenever a document of `collection` may have changed since it was last
   * returned: a commit of this process to the collection, or any commit by another process to the
   * same database (so it suits several API processes on one data directory). Lets callers keep
   * parsed documents between requests (see CachedDocuments). Optional; a store that cannot tell
   * cheaply leaves it out (or answers NaN), and its documents are read every time.
   *
   * Given several collections, one number that changes whenever any of theirs would (what a cache
   * of documents drawn from several collections needs), for the cost of one check.
   */
  changeStamp?(collection: string | readonly string[]): number;

  /**
   * Bounds on the projector's batches and commits for a store whose transactions have limits
   * (MongoDB: MONGODB_LIMITS). Optional: without it, the projector's defaults apply and a commit
   * is one transaction.
   */
  readonly limits?: StoreLimits;

  health(): Promise<{ ok: boolean; detail?: string }>;
  close(): Promise<void>;
}
