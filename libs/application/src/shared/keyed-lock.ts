/**
 * One queue per key, in this process: `run(key, work)` starts `work` once every earlier `run` of
 * the same key has settled, and right away when the key is idle. Keys never wait for one another,
 * there is no global lock, and an idle key costs nothing: its entry is removed when its last
 * holder finishes. A holder that throws releases the key like one that returns.
 *
 * The DeciderRunner takes the lock of the stream a command appends to before it reads that stream,
 * so that writers of one stream in one process take turns instead of racing to the same revision
 * (issue 38). A holder never waits for another key while it holds one (each run appends to one
 * stream; a command that writes several streams runs them one after the other), so no two holders
 * can wait for each other; `runAll` takes several keys in one sorted order for the same reason.
 */
export class KeyedLock {
  /** For each busy key, a promise that settles when its last queued holder is done. */
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    // `previous` only ever resolves (it is made of `done`s), so the chain never rejects.
    const tail = previous ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    try {
      if (previous) await previous;
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** `run` under every key at once, taken in sorted order (so two callers never wait for each other). */
  async runAll<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const take = (i: number): Promise<T> => (i === sorted.length ? work() : this.run(sorted[i], () => take(i + 1)));
    return take(0);
  }

  /** Keys held or waited for right now (0 when idle: no entry outlives its holders). */
  get size(): number {
    return this.tails.size;
  }
}
