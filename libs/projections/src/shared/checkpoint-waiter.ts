import type { GlobalPosition, ReadModelChangesPort, ReadStorePort } from '@app/application';
import { ProjectionTimeoutError, ProjectionWaiter } from '@app/application';

type Waiter = { position: GlobalPosition; resolve: () => void; reject: (e: Error) => void; timer: NodeJS.Timeout | undefined };

/**
 * Read-your-writes for a process whose projectors run elsewhere (an API process beside a worker):
 * waits until the stored checkpoints of every projection reach the position.
 *
 * All the waiting writes of the process share one reading of the checkpoints per notification
 * that another process moved them (ReadModelChangesPort: SQLite's data_version woken by a file
 * watch, a MongoDB change stream), so the cost does not grow with the number of waiting writes.
 * A slow timer re-reads them too while anyone waits, in case a notification never comes.
 */
export class CheckpointWaiter extends ProjectionWaiter {
  private waiters: Waiter[] = [];
  /** Every projection's stored checkpoint is at or past this position. */
  private reached: GlobalPosition = -1n;
  private unsubscribe: (() => void) | undefined;
  private fallback: NodeJS.Timeout | undefined;
  private reading = false;
  private readAgain = false;
  /** Number of checkpoint reads (tests, diagnostics). */
  reads = 0;

  constructor(
    private readonly readStore: ReadStorePort,
    private readonly projectionNames: string[],
    private readonly changes: ReadModelChangesPort,
    private readonly options: { timeoutMs: number; fallbackPollMs?: number },
  ) {
    super();
  }

  get position(): GlobalPosition {
    return this.reached;
  }

  /** Boot-time work waiting without a timeout (see ProjectionWaiter.patiently). */
  private patience = 0;

  override async patiently<T>(work: () => Promise<T>): Promise<T> {
    this.patience++;
    try {
      return await work();
    } finally {
      this.patience--;
    }
  }

  waitFor(position: GlobalPosition | undefined, timeoutMs = this.patience > 0 ? Infinity : this.options.timeoutMs): Promise<void> {
    if (position === undefined || position <= this.reached) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { position, resolve, reject, timer: undefined };
      if (Number.isFinite(timeoutMs)) {
        waiter.timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          this.idleIfNobodyWaits();
          reject(new ProjectionTimeoutError(position, timeoutMs));
        }, timeoutMs);
      }
      this.waiters.push(waiter);
      this.listen();
      // The worker may have got there already (before this process was told).
      this.read();
    });
  }

  private listen(): void {
    if (!this.unsubscribe) this.unsubscribe = this.changes.onChange(() => this.read());
    if (!this.fallback) {
      // Not unref'd: it runs only while a write waits, and a wait without a timeout (boot, before
      // the worker has started) must keep the process alive.
      this.fallback = setInterval(() => this.read(), this.options.fallbackPollMs ?? 250);
    }
  }

  private idleIfNobodyWaits(): void {
    if (this.waiters.length > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.fallback) clearInterval(this.fallback);
    this.fallback = undefined;
  }

  /** One reading at a time; notifications during a reading ask for one more after it. */
  private read(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    this.reads++;
    this.readStore
      .getCheckpoints()
      .then((stored) => {
        let lowest: GlobalPosition | undefined;
        for (const name of this.projectionNames) {
          const position = stored[name] ?? -1n;
          if (lowest === undefined || position < lowest) lowest = position;
        }
        if (lowest !== undefined && lowest > this.reached) this.reached = lowest;
        this.wake();
      })
      .catch(() => undefined) // a store briefly away: the next notification or the timer reads again
      .finally(() => {
        this.reading = false;
        if (this.readAgain && this.waiters.length > 0) {
          this.readAgain = false;
          this.read();
        }
        this.readAgain = false;
      });
  }

  private wake(): void {
    const ready = this.waiters.filter((w) => w.position <= this.reached);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.position > this.reached);
    for (const w of ready) {
      clearTimeout(w.timer);
      w.resolve();
    }
    this.idleIfNobodyWaits();
  }

  /** Rejects whatever still waits (the application is closing). */
  close(): void {
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error('closing'));
    }
    this.idleIfNobodyWaits();
  }
}
