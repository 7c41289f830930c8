import type { GlobalPosition } from '../ports/event-store.port';
import type {
  CollectionSpec,
  Filter,
  FindOptions,
  ReadStoreBatch,
  ReadStorePort,
  StoredDocument,
} from '../ports/read-store.port';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import type { StoreLimits } from '../ports/store-limits';
import type { ReadModelCopy, ReadModelLayout } from './read-model-copies';

/**
 * The live read store as the application sees it: it routes each collection, and each projection
 * checkpoint, to the copy that holds it (see ReadModelLayout). A rebuild switches a collection (or
 * all of them) to a fresh copy with one synchronous assignment, so a query sees either the old
 * copy or the new one, never a mix within one call.
 *
 * A projector's commit is split by copy: each copy gets its documents with their checkpoints in
 * one transaction of its own, which keeps every projection's documents and checkpoint together.
 */
export class RoutingReadStore implements ReadStorePort {
  private copies = new Map<string, ReadStorePort>();
  private layout: ReadModelLayout;

  constructor(copies: Map<string, ReadStorePort>, layout: ReadModelLayout) {
    this.copies = new Map(copies);
    this.layout = cloneLayout(layout);
    if (!this.copies.has(layout.default)) throw new Error(`read-model copy ${layout.default} is not open`);
  }

  /** The default copy's limits (every copy is the same kind of store). */
  get limits(): StoreLimits | undefined {
    return this.copies.get(this.layout.default)?.limits;
  }

  /** The layout in use now (a copy). */
  currentLayout(): ReadModelLayout {
    return cloneLayout(this.layout);
  }

  /** Labels of the copies the layout uses. */
  labelsInUse(layout = this.layout): Set<string> {
    return new Set([layout.default, ...Object.values(layout.collections), ...Object.values(layout.checkpoints)]);
  }

  storeForCollection(collection: string): ReadStorePort {
    return this.copies.get(this.layout.collections[collection] ?? this.layout.default)!;
  }

  private storeForCheckpoint(name: string): ReadStorePort {
    return this.copies.get(this.layout.checkpoints[name] ?? this.layout.default)!;
  }

  /**
   * Switches to a new layout at once (every copy it names must be registered with `addCopy` or
   * already open); returns the labels no longer in use, which the caller may drop.
   */
  switchTo(layout: ReadModelLayout): string[] {
    for (const label of this.labelsInUse(layout)) if (!this.copies.has(label)) throw new Error(`read-model copy ${label} is not open`);
    const before = this.labelsInUse();
    this.layout = cloneLayout(layout);
    const after = this.labelsInUse();
    const unused = [...before].filter((label) => !after.has(label));
    for (const label of unused) this.copies.delete(label);
    return unused;
  }

  addCopy(copy: ReadModelCopy): void {
    this.copies.set(copy.label, copy.readStore);
  }

  ensureCollection(spec: CollectionSpec): Promise<void> {
    return this.storeForCollection(spec.name).ensureCollection(spec);
  }

  get<D>(collection: string, id: string): Promise<D | null> {
    return this.storeForCollection(collection).get<D>(collection, id);
  }

  getMany<D>(collection: string, ids: string[]): Promise<StoredDocument<D>[]> {
    return this.storeForCollection(collection).getMany<D>(collection, ids);
  }

  find<D>(collection: string, options?: FindOptions): Promise<D[]> {
    return this.storeForCollection(collection).find<D>(collection, options);
  }

  count(collection: string, where?: Filter): Promise<number> {
    return this.storeForCollection(collection).count(collection, where);
  }

  async commit(batch: ReadStoreBatch): Promise<void> {
    if (this.copies.size === 1) return this.copies.values().next().value!.commit(batch);
    const parts = new Map<ReadStorePort, ReadStoreBatch>();
    const part = (store: ReadStorePort) => {
      let p = parts.get(store);
      if (!p) parts.set(store, (p = { writes: [], checkpoints: [] }));
      return p;
    };
    for (const write of batch.writes) part(this.storeForCollection(write.collection)).writes.push(write);
    for (const checkpoint of batch.checkpoints) part(this.storeForCheckpoint(checkpoint.name)).checkpoints.push(checkpoint);
    for (const [store, p] of parts) await store.commit(p);
  }

  getCheckpoint(name: string): Promise<GlobalPosition | undefined> {
    return this.storeForCheckpoint(name).getCheckpoint(name);
  }

  async getCheckpoints(): Promise<Record<string, GlobalPosition>> {
    const byLabel = new Map<string, Record<string, GlobalPosition>>();
    for (const label of this.labelsInUse()) byLabel.set(label, await this.copies.get(label)!.getCheckpoints());
    const merged: Record<string, GlobalPosition> = {};
    for (const [label, checkpoints] of byLabel) {
      for (const [name, position] of Object.entries(checkpoints)) {
        if ((this.layout.checkpoints[name] ?? this.layout.default) === label) merged[name] = position;
      }
    }
    return merged;
  }

  dropCollection(collection: string): Promise<void> {
    return this.storeForCollection(collection).dropCollection(collection);
  }

  deleteCheckpoint(name: string): Promise<void> {
    return this.storeForCheckpoint(name).deleteCheckpoint(name);
  }

  async caughtUp(): Promise<void> {
    for (const store of this.copies.values()) await store.caughtUp?.();
  }

  /**
   * The stamp of the copy holding the collection now (stamps are unique across copies). For
   * several collections, the newest of their copies' stamps: stamps come from one increasing
   * counter, so it changes whenever any of them does.
   */
  changeStamp(collection: string | readonly string[]): number {
    if (typeof collection === 'string') {
      const store = this.storeForCollection(collection);
      return store.changeStamp ? store.changeStamp(collection) : NaN;
    }
    const byStore = new Map<ReadStorePort, string[]>();
    for (const name of collection) {
      const store = this.storeForCollection(name);
      const names = byStore.get(store);
      if (names) names.push(name);
      else byStore.set(store, [name]);
    }
    let stamp = -Infinity;
    for (const [store, names] of byStore) stamp = Math.max(stamp, store.changeStamp ? store.changeStamp(names) : NaN);
    return stamp;
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    for (const store of this.copies.values()) {
      const h = await store.health();
      if (!h.ok) return h;
    }
    return { ok: true };
  }

  async close(): Promise<void> {
    for (const store of this.copies.values()) await store.close();
  }
}

/**
 * The live per-user message state: every call goes to the current copy; a rebuild switches it.
 * A Proxy, so that the port can grow without this class following it method by method.
 */
export class SwitchableUserMessageStore {
  private current: UserMessageStorePort;
  readonly port: UserMessageStorePort;

  constructor(initial: UserMessageStorePort) {
    this.current = initial;
    this.port = new Proxy({} as UserMessageStorePort, {
      get: (_target, property) => {
        const value = (this.current as unknown as Record<PropertyKey, unknown>)[property];
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(this.current) : value;
      },
    });
  }

  get store(): UserMessageStorePort {
    return this.current;
  }

  /** Switches to another store at once; returns the previous one. */
  switchTo(store: UserMessageStorePort): UserMessageStorePort {
    const previous = this.current;
    this.current = store;
    return previous;
  }
}

export const cloneLayout = (layout: ReadModelLayout): ReadModelLayout => ({
  default: layout.default,
  collections: { ...layout.collections },
  checkpoints: { ...layout.checkpoints },
});
