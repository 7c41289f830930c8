import type {
  AllSubscription,
  EventStorePort,
  GlobalPosition,
  ReadStorePort,
  RecordedEvent,
  WriteOperation,
} from '@app/application';
import { ProjectionTimeoutError, ProjectionWaiter } from '@app/application';
import type { BulkProjection } from './bulk-projection';
import type { Projection } from './projection';

export type ProjectorLogger = {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type ProjectorOptions = {
  waitTimeoutMs: number;
  batchSize?: number;
  /** Delay before re-subscribing after a failed batch (a poison event or a store outage). */
  retryDelayMs?: number;
  /** Projections that write to a store of their own, in bulk (see BulkProjection). */
  bulkProjections?: BulkProjection[];
};

type Waiter = { position: GlobalPosition; resolve: () => void; reject: (e: Error) => void; timer: NodeJS.Timeout | undefined };

/**
 * Applies the global log, in order, to every projection, one atomic read-store commit per batch
 * (documents + checkpoints), and wakes the handlers waiting for read-your-writes.
 *
 * Idempotent under redelivery: an event at or below a projection's stored checkpoint is skipped,
 * and so is an event at or below the position a document was last written at.
 */
export class Projector extends ProjectionWaiter {
  private subscription: AllSubscription | undefined;
  private checkpoints = new Map<string, GlobalPosition | undefined>();
  /** Every projection has applied the log up to here. */
  private processedUpTo: GlobalPosition = -1n;
  private waiters: Waiter[] = [];
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly events: EventStorePort,
    private readonly readStore: ReadStorePort,
    private readonly projections: Projection[],
    private readonly logger: ProjectorLogger,
    private readonly options: ProjectorOptions,
  ) {
    super();
  }

  private get bulkProjections(): BulkProjection[] {
    return this.options.bulkProjections ?? [];
  }

  get position(): GlobalPosition {
    return this.processedUpTo;
  }

  async start(): Promise<void> {
    this.stopped = false;
    for (const projection of this.projections) await this.readStore.ensureCollection(projection.collection);
    for (const projection of this.bulkProjections) await projection.prepare();
    await this.subscribe();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.subscription?.close();
    this.subscription = undefined;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error('projector stopped'));
    }
  }

  /** Resolves once every projection reflects the log up to `position` (bounded by the wait timeout). */
  waitFor(position: GlobalPosition | undefined, timeoutMs = this.options.waitTimeoutMs): Promise<void> {
    if (position === undefined || position <= this.processedUpTo) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { position, resolve, reject, timer: undefined };
      if (Number.isFinite(timeoutMs)) {
        waiter.timer = setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new ProjectionTimeoutError(position, timeoutMs));
        }, timeoutMs);
      }
      this.waiters.push(waiter);
    });
  }

  /**
   * Waits until the projector has applied everything the log holds now. At boot this may be a
   * long replay, so by default it waits as long as it takes.
   */
  async catchUp(timeoutMs = Infinity): Promise<void> {
    const head = await this.events.headPosition();
    await this.waitFor(head, timeoutMs);
  }

  private async subscribe(): Promise<void> {
    await this.loadCheckpoints();
    const positions = [...this.checkpoints.values()];
    const after = positions.some((p) => p === undefined) ? undefined : positions.reduce((a, b) => (a! < b! ? a : b));
    if (after !== undefined && after > this.processedUpTo) this.processedUpTo = after;
    // Live, a batch is whatever arrived (usually a few events); catching up, large batches make
    // few big read-store transactions, which is what makes replays fast.
    const subscription = this.events.subscribeToAll({ after, batchSize: this.options.batchSize ?? 5000 }, (batch) =>
      this.applyBatch(batch),
    );
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        if (this.stopped || this.subscription !== subscription) return;
        this.logger.error({ err: error }, 'projector stopped on an error; retrying');
        this.scheduleRetry();
      },
    );
  }

  /** Keeps retrying, however long the outage (a poison event, a read store that is down). */
  private scheduleRetry(): void {
    this.retryTimer = setTimeout(() => {
      if (this.stopped) return;
      this.subscribe().catch((error) => {
        this.logger.error({ err: error }, 'projector resubscribe failed; retrying');
        if (!this.stopped) this.scheduleRetry();
      });
    }, this.options.retryDelayMs ?? 1000);
  }

  private async loadCheckpoints(): Promise<void> {
    const stored = await this.readStore.getCheckpoints();
    for (const projection of this.projections) this.checkpoints.set(projection.name, stored[projection.name]);
    // A bulk projection's store writes its checkpoint beside the read store's (same database).
    for (const projection of this.bulkProjections) this.checkpoints.set(projection.name, stored[projection.name]);
  }

  private async applyBatch(batch: RecordedEvent[]): Promise<void> {
    if (batch.length === 0) return;
    // Another process sharing the store (the CLI next to the server) may have moved a checkpoint.
    await this.loadCheckpoints();
    const last = batch[batch.length - 1].position;
    const writes: { collection: string; ops: WriteOperation[] }[] = [];

    for (const projection of this.projections) {
      const checkpoint = this.checkpoints.get(projection.name);
      const relevant = batch.filter(
        (e) => (checkpoint === undefined || e.position > checkpoint) && projection.handles.includes(e.type),
      );
      if (relevant.length === 0) continue;
      const ids = [...new Set(relevant.flatMap((e) => projection.idsOf(e)))];
      const stored = await this.readStore.getMany<object>(projection.collection.name, ids);
      const docs = new Map<string, { doc: object | null; position: GlobalPosition | null; dirty: boolean }>(
        ids.map((id) => [id, { doc: null, position: null, dirty: false }]),
      );
      for (const s of stored) docs.set(s.id, { doc: s.doc, position: s.position, dirty: false });
      for (const event of relevant) {
        for (const id of projection.idsOf(event)) {
          const current = docs.get(id)!;
          if (current.position !== null && current.position >= event.position) continue;
          docs.set(id, { doc: projection.evolve(current.doc, event, id), position: event.position, dirty: true });
        }
      }
      const ops: WriteOperation[] = [];
      for (const [id, entry] of docs) {
        if (!entry.dirty) continue;
        ops.push(entry.doc === null ? { type: 'delete', id } : { type: 'put', id, doc: entry.doc, position: entry.position! });
      }
      if (ops.length > 0) writes.push({ collection: projection.collection.name, ops });
    }

    const checkpoints = this.projections
      .filter((p) => { const c = this.checkpoints.get(p.name); return c === undefined || c < last; })
      .map((p) => ({ name: p.name, position: last }));
    await this.readStore.commit({ writes, checkpoints });
    for (const { name } of checkpoints) this.checkpoints.set(name, last);
    // Bulk projections apply their events and move their own checkpoint in one transaction of
    // their store, after the documents: a crash in between replays the batch, which the
    // documents skip (checkpoint) and the bulk store skips at or below its own checkpoint.
    for (const projection of this.bulkProjections) {
      const checkpoint = this.checkpoints.get(projection.name);
      if (checkpoint !== undefined && checkpoint >= last) continue;
      const relevant = batch.filter((e) => (checkpoint === undefined || e.position > checkpoint) && projection.handles.includes(e.type));
      await projection.apply(relevant, last);
      this.checkpoints.set(projection.name, last);
    }
    this.processedUpTo = last;
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    const ready = this.waiters.filter((w) => w.position <= this.processedUpTo);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.position > this.processedUpTo);
    for (const w of ready) {
      clearTimeout(w.timer);
      w.resolve();
    }
  }
}

/**
 * For processes that do not run projectors (an API instance next to a worker in servers mode):
 * waits by polling the stored checkpoints of the given projections.
 */
export class CheckpointPollingWaiter extends ProjectionWaiter {
  constructor(
    private readonly readStore: ReadStorePort,
    private readonly projectionNames: string[],
    private readonly timeoutMs: number,
    private readonly pollMs = 10,
  ) {
    super();
  }

  async waitFor(position: GlobalPosition | undefined): Promise<void> {
    if (position === undefined) return;
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const stored = await this.readStore.getCheckpoints();
      if (this.projectionNames.every((name) => (stored[name] ?? -1n) >= position)) return;
      if (Date.now() >= deadline) throw new ProjectionTimeoutError(position, this.timeoutMs);
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }
}
