/**
 * A cache of at most about `2 × size` entries, in two generations: new entries go into the young
 * one; when it is full it becomes the old one and the old one is dropped; a hit in the old one is
 * moved back into the young one. Every operation is O(1).
 *
 * Why not an LRU on one Map's insertion order (delete the first key when full): V8's Map leaves a
 * hole for each deleted entry until its table is rebuilt, and `keys().next()` walks over the holes
 * at the front, so evicting one entry from a Map that is refreshed or evicted all the time cost
 * about 2.5 µs at 4,096 entries, more the larger it was (measured: docs/benchmarks.md, "Sealed
 * message texts", third pass).
 */
export class BoundedCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  constructor(private readonly size: number) {
    if (!(size >= 1)) throw new Error(`a BoundedCache holds at least one entry (got ${size})`);
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const older = this.old.get(key);
    if (older !== undefined) {
      this.old.delete(key);
      this.set(key, older);
    }
    return older;
  }

  set(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.size) {
      this.old = this.young;
      this.young = new Map();
    }
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }

  /** Entries held now (between 0 and 2 × size). */
  get count(): number {
    return this.young.size + this.old.size;
  }
}
