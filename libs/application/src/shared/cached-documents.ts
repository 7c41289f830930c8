import type { ReadStorePort } from '../ports/read-store.port';

/** Freezes a parsed document and everything in it, so that callers sharing it cannot change it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}

const ABSENT = Symbol('absent');

/**
 * Parsed documents of one read-model collection kept between requests, for the reads nearly every
 * request makes again (the caller's credentials and account, the organization). An entry is good
 * while the read store's change stamp of the collection stays the same: a commit to the collection
 * by this process's projector, or any commit by another process on the same database (an API
 * process whose projectors run in a worker), empties the cache before the next read. A store
 * without stamps (MongoDB) is read every time. Entries are frozen: every caller shares them.
 * Given several collections, an entry is good while none of them changed (one check for all).
 */
export class CachedDocuments<D> {
  private stamp = NaN;
  /** ABSENT: read by `getMany` and not in the read store (a user who never changed a setting). */
  private readonly entries = new Map<string, D | typeof ABSENT>();

  constructor(
    private readonly readStore: ReadStorePort,
    private readonly collection: string | readonly string[],
    private readonly maxEntries = 10_000,
  ) {}

  /**
   * The document cached under `key` if there is one and the collections did not change since it
   * was read, else undefined (then `get` reads it). No read and no promise: for the hot path of
   * authentication.
   */
  peek(key: string): D | undefined {
    if (Number.isNaN(this.check())) return undefined;
    const hit = this.entries.get(key);
    return hit === ABSENT ? undefined : hit;
  }

  /** The document cached under `key`, else what `load` reads (remembered unless the collection changed meanwhile). */
  async get(key: string, load: () => Promise<D | null>): Promise<D | null> {
    return this.read(this.check(), key, load);
  }

  /**
   * One change check for several reads in a row (those of one request, made in one turn of the
   * event loop): the view's `get` answers as `get` would have at the time of the view. Each check
   * of the embedded store is a `PRAGMA data_version` of about a microsecond and a half, which
   * adds up over the half-dozen documents of a send (issue #23). A read the cache misses is still
   * checked after its load, as in `get`.
   */
  view(): { get(key: string, load: () => Promise<D | null>): Promise<D | null> } {
    const stamp = this.check();
    return { get: (key, load) => this.read(stamp, key, load) };
  }

  /** The change stamp now (NaN: the store has none), the entries emptied if it moved. */
  private check(): number {
    const stamp = this.readStore.changeStamp ? this.readStore.changeStamp(this.collection) : NaN;
    if (!Number.isNaN(stamp) && stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
    }
    return stamp;
  }

  /**
   * Several documents with one change check: those in memory, the rest in one `loadMany` (which
   * answers the documents it found; a key it leaves out is remembered as absent, so that the
   * users without a document cost nothing either on the next call). For the reads repeated for
   * every recipient of every message (the missed-message reactor: settings, subscriptions, topic
   * policies), which change far less often than messages are sent.
   */
  async getMany(keys: readonly string[], loadMany: (missing: string[]) => Promise<Map<string, D>>): Promise<Map<string, D | null>> {
    const stamp = this.check();
    const found = new Map<string, D | null>();
    if (Number.isNaN(stamp)) {
      const loaded = await loadMany([...keys]);
      for (const key of keys) found.set(key, loaded.get(key) ?? null);
      return found;
    }
    const missing: string[] = [];
    for (const key of keys) {
      const hit = this.entries.get(key);
      if (hit === undefined) missing.push(key);
      else found.set(key, hit === ABSENT ? null : hit);
    }
    if (missing.length === 0) return found;
    const loaded = await loadMany(missing);
    // Kept only if nothing was committed to the collections between the stamp and the read.
    const keep = this.stamp === stamp && this.readStore.changeStamp!(this.collection) === stamp;
    if (keep && this.entries.size + missing.length > this.maxEntries) this.entries.clear();
    for (const key of missing) {
      const doc = loaded.get(key);
      if (doc === undefined) {
        found.set(key, null);
        if (keep) this.entries.set(key, ABSENT);
      } else {
        found.set(key, keep ? deepFreeze(doc) : doc);
        if (keep) this.entries.set(key, doc);
      }
    }
    return found;
  }

  private async read(stamp: number, key: string, load: () => Promise<D | null>): Promise<D | null> {
    // No stamps, or the cache moved on since this stamp was taken (an older view): read.
    if (Number.isNaN(stamp) || stamp !== this.stamp) return load();
    const hit = this.entries.get(key);
    if (hit === ABSENT) return null;
    if (hit !== undefined) return hit;
    const doc = await load();
    // Kept only if nothing was committed to the collection between the stamp and the read.
    if (doc !== null && this.stamp === stamp && this.readStore.changeStamp!(this.collection) === stamp) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, deepFreeze(doc));
    }
    return doc;
  }
}
