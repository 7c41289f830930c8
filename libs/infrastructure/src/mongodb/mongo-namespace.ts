/**
 * Holds a copy's operations while its collections are being renamed (a blue/green switch,
 * MongoReadModelCopies): ordinary operations run concurrently inside `run`; `hold` waits until
 * none is under way, keeps new ones waiting while its callback runs, then lets them through.
 */
export class SwitchGate {
  private active = 0;
  private closed: Promise<void> | undefined;
  private drained: (() => void) | undefined;
  private retired: Error | undefined;

  async run<T>(operation: () => Promise<T>): Promise<T> {
    while (this.closed) await this.closed;
    if (this.retired) throw this.retired;
    this.active++;
    try {
      return await operation();
    } finally {
      this.active--;
      if (this.active === 0) this.drained?.();
    }
  }

  async hold<T>(exclusive: () => Promise<T>): Promise<T> {
    while (this.closed) await this.closed;
    let open!: () => void;
    this.closed = new Promise<void>((resolve) => (open = resolve));
    try {
      if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = undefined;
      return await exclusive();
    } finally {
      this.closed = undefined;
      open();
    }
  }

  /** Every later operation fails with this error (a dropped copy must not re-create its collections). */
  retire(error: Error): void {
    this.retired = error;
  }
}

/**
 * The collection names one read-model copy uses: the live names (suffix '') or the live names
 * with a copy's suffix (`rm_users__rb_mhx2k1`). Shared by a copy's read store and per-user
 * message store; a switch renames the suffixed collections over the live names and then sets
 * the suffix to '' (under the gate), so the copy's stores go on with the live names.
 */
export class MongoNamespace {
  readonly gate = new SwitchGate();

  constructor(public suffix = '') {}

  /** The name of a base collection (`rm_users`, `um_messages`, `_checkpoints`) in this copy. */
  of(base: string): string {
    return base + this.suffix;
  }

  get isLive(): boolean {
    return this.suffix === '';
  }
}

/**
 * Wraps every method of `target` (a store whose methods all return promises) so that it runs
 * inside the gate; calls the store makes to itself are not gated again. `close` is not gated.
 */
export function gated<T extends object>(target: T, gate: SwitchGate): T {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object) as unknown;
      if (typeof value !== 'function' || property === 'close') return typeof value === 'function' ? value.bind(object) : value;
      return (...args: unknown[]) => gate.run(() => Promise.resolve((value as (...a: unknown[]) => unknown).apply(object, args)));
    },
  });
}
