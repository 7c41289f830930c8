import type {
  AllSubscription,
  EventStorePort,
  GlobalPosition,
  ReadStorePort,
  RecordedEvent,
  WriteOperation,
} from '@app/application';
import { isContentKeyMissing, ProjectionTimeoutError, ProjectionWaiter } from '@app/application';
import type { BulkProjection } from './bulk-projection';
import type { Projection } from './projection';

export type ProjectorLogger = {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  fatal?(obj: object, msg: string): void;
};

export type ProjectorOptions = {
  waitTimeoutMs: number;
  batchSize?: number;
  /** Delay before re-subscribing after a failed batch (a poison event or a store outage); doubles with each consecutive failure. */
  retryDelayMs?: number;
  /** The longest delay between retries of a batch that keeps failing (default 60 s). */
  maxRetryDelayMs?: number;
  /** Projections that write to a store of their own, in bulk (see BulkProjection). */
  bulkProjections?: BulkProjection[];
  /** While catching up, commit once this many events have been applied without a commit (default DEFAULT_WRITE_BEHIND_EVENTS, 100,000). */
  writeBehindEvents?: number;
  /**
   * Events that erase (a message's deletion), and what to call once a commit holds one: the store
   * then scrubs the erased bytes out of its files (StorageScrubberPort.request).
   */
  erasures?: { types: readonly string[]; committed(): void };
};

type Waiter = { position: GlobalPosition; resolve: () => void; reject: (e: Error) => void; timer: NodeJS.Timeout | undefined };

/** `previous`: the document as stored when it was loaded (null: none), a hint for the store's write. */
type PendingDocument = { doc: object | null; position: GlobalPosition | null; dirty: boolean; previous: object | null };

/**
 * While catching up (full batches keep coming), documents are kept in memory across batches and
 * written with their checkpoints once this many events have been applied since the last commit
 * (which also bounds the documents held), or as soon as the projector is caught up: a document
 * touched by many events is written once, in fewer transactions. Measured on the replay bench
 * (200,000 user events, ~200,000 documents): 20,000 → 100,000 events took ~15 % of the CPU off
 * the replay (fewer pages rewritten by every commit, fewer documents loaded again), at the cost of
 * holding up to that many documents in memory during a catch-up.
 */
const DEFAULT_WRITE_BEHIND_EVENTS = 100_000;
/** How stale this process's view of the stored checkpoints may get between live batches. */
const CHECKPOINT_RELOAD_MS = 250;
/** A full batch followed by silence still gets written promptly. */
const WRITE_BEHIND_IDLE_FLUSH_MS = 20;

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
  /** Documents evolved but not yet committed (write-behind), by collection and id. */
  private pending = new Map<string, Map<string, PendingDocument>>();
  private pendingCount = 0;
  private pendingEvents = 0;
  private pendingUpTo: GlobalPosition | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  /** Batches and idle flushes run one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();
  private checkpointsLoadedAt = 0;
  private byType: Map<string, number[]> | undefined;
  /** Whether the read store was told the replay caught up (see storeCaughtUp). */
  private toldCaughtUp = false;
  private seen = 0;
  /** Failed batches in a row (reset by a commit); drives the backoff and the smaller batches. */
  private failures = 0;
  /**
   * After failures, batches are halved each time (down to one event) and committed one by one,
   * until the projector reaches the log's head: a batch too large for the store's transaction
   * gets through, and a poison event ends up alone in its batch, named in the log.
   */
  private reducedBatchSize: number | undefined;
  /** A batch held for the next commit erases something (ProjectorOptions.erasures). */
  private erasing = false;
  /** The batch being applied, for the error log. */
  private current: { first: RecordedEvent; last: RecordedEvent; size: number } | undefined;
  /** The error the projector stopped on for good (see stoppedBy). */
  private fatal: Error | undefined;
  private readonly stopListeners: ((error: Error) => void)[] = [];

  constructor(
    private readonly events: EventStorePort,
    private readonly readStore: ReadStorePort,
    private readonly projections: Projection[],
    private readonly logger: ProjectorLogger,
    private readonly options: ProjectorOptions,
  ) {
    super();
  }

  /** The configured batch size, capped by the read store's limits (MongoDB: 1,000 events). */
  private get fullBatchSize(): number {
    return Math.max(1, Math.min(this.options.batchSize ?? 5000, this.readStore.limits?.maxBatchEvents ?? Infinity));
  }

  private get batchSize(): number {
    return this.reducedBatchSize ?? this.fullBatchSize;
  }

  private get writeBehindEvents(): number {
    if (this.reducedBatchSize !== undefined) return 1;
    return Math.min(this.options.writeBehindEvents ?? DEFAULT_WRITE_BEHIND_EVENTS, this.readStore.limits?.maxWriteBehindEvents ?? Infinity);
  }

  private get bulkProjections(): BulkProjection[] {
    return this.options.bulkProjections ?? [];
  }

  get position(): GlobalPosition {
    return this.processedUpTo;
  }

  /**
   * The error the projector stopped on, for good: a sealed event whose key this installation does
   * not have (ContentKeyMissingError). Retrying reads the same bytes with the same keys, so it
   * is not retried: waiters (the boot's catch-up among them) are rejected with it, and the process
   * is expected to exit (docs/deployment.md, "The event log cannot be opened").
   */
  get stoppedBy(): Error | undefined {
    return this.fatal;
  }

  /** Calls `listener` once the projector stops for good (at once if it has): the entry points exit then. */
  whenStoppedForGood(listener: (error: Error) => void): void {
    if (this.fatal) listener(this.fatal);
    else this.stopListeners.push(listener);
  }

  /** Events this projector has been handed since it started (progress is counted in events, not positions). */
  get eventsSeen(): number {
    return this.seen;
  }

  async start(): Promise<void> {
    if (this.fatal) throw this.fatal;
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
    // Keep the work of a catch-up that was interrupted by a clean stop.
    await this.serially(() => this.flush()).catch((error) => this.logger.error({ err: error }, 'projector could not write its last documents'));
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error('projector stopped'));
    }
  }

  /** Resolves once every projection reflects the log up to `position` (bounded by the wait timeout). */
  waitFor(position: GlobalPosition | undefined, timeoutMs = this.options.waitTimeoutMs): Promise<void> {
    if (position === undefined || position <= this.processedUpTo) return Promise.resolve();
    if (this.fatal) return Promise.reject(this.fatal);
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
    await this.serially(() => this.storeCaughtUp());
  }

  /** Tells the store, once, that the replay has caught up (it may leave a fresh-load mode). */
  private async storeCaughtUp(): Promise<void> {
    if (this.toldCaughtUp) return;
    this.toldCaughtUp = true;
    await this.readStore.caughtUp?.();
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work, work);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async subscribe(): Promise<void> {
    // Whatever was held back is replayed from the stored checkpoints.
    this.discardPending();
    await this.loadCheckpoints();
    const positions = [...this.checkpoints.values()];
    const after = positions.some((p) => p === undefined) ? undefined : positions.reduce((a, b) => (a! < b! ? a : b));
    if (after !== undefined && after > this.processedUpTo) this.processedUpTo = after;
    // Live, a batch is whatever arrived (usually a few events); catching up, large batches make
    // few big read-store transactions, which is what makes replays fast.
    const subscription = this.events.subscribeToAll({ after, batchSize: this.batchSize }, (batch) =>
      this.serially(() => this.applyBatch(batch)),
    );
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        if (this.stopped || this.subscription !== subscription) return;
        this.failed(error, 'projector could not apply a batch');
      },
    );
  }

  /**
   * A failed batch (or resubscribe): logged with the batch it was, then retried after a delay
   * that doubles with each failure in a row (up to maxRetryDelayMs), with batches halved each
   * time. Keeps retrying, however long the outage (a read store that is down).
   */
  private failed(error: unknown, what: string, shrink = true): void {
    if (isContentKeyMissing(error)) {
      this.stopFor(error);
      return;
    }
    this.failures++;
    const delay = Math.min((this.options.retryDelayMs ?? 1000) * 2 ** (this.failures - 1), this.options.maxRetryDelayMs ?? 60_000);
    const batch = this.current
      ? { from: this.current.first.position.toString(), to: this.current.last.position.toString(), events: this.current.size, firstEvent: { id: this.current.first.id, type: this.current.first.type, stream: this.current.first.streamId } }
      : undefined;
    if (shrink) this.reducedBatchSize = Math.max(1, Math.floor(Math.min(this.batchSize, this.current?.size ?? Infinity) / 2));
    this.current = undefined;
    this.logger.error(
      { err: error, consecutiveFailures: this.failures, retryInMs: delay, batch, nextBatchSize: this.batchSize },
      `${what}; retrying in ${delay} ms${this.failures > 1 ? ` (failed ${this.failures} times in a row)` : ''}`,
    );
    this.scheduleRetry(delay);
  }

  /** Stops for good on an error no retry mends (see stoppedBy): logged once, waiters rejected. */
  private stopFor(error: Error): void {
    if (this.fatal) return;
    this.fatal = error;
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const batch = this.current ? { from: this.current.first.position.toString(), firstEvent: { id: this.current.first.id, type: this.current.first.type, stream: this.current.first.streamId } } : undefined;
    this.current = undefined;
    const log = this.logger.fatal ?? this.logger.error;
    log.call(this.logger, { err: error, batch }, `projector stopped: ${error.message}`);
    const subscription = this.subscription;
    this.subscription = undefined;
    void subscription?.close().catch(() => undefined);
    this.discardPending();
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(error);
    }
    for (const listener of this.stopListeners.splice(0)) listener(error);
  }

  private scheduleRetry(delay: number): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      if (this.stopped) return;
      this.subscribe().catch((error) => {
        if (!this.stopped) this.failed(error, 'projector could not resubscribe', false);
      });
    }, delay);
  }

  private async loadCheckpoints(): Promise<void> {
    this.checkpointsLoadedAt = Date.now();
    const stored = await this.readStore.getCheckpoints();
    for (const projection of this.projections) this.checkpoints.set(projection.name, stored[projection.name]);
    // A bulk projection's store writes its checkpoint beside the read store's (same database).
    for (const projection of this.bulkProjections) this.checkpoints.set(projection.name, stored[projection.name]);
  }

  /** For each event type, the indexes of the projections that handle it. */
  private get projectionsByType(): Map<string, number[]> {
    if (!this.byType) {
      this.byType = new Map();
      this.projections.forEach((projection, index) => {
        for (const type of projection.handles) {
          const list = this.byType!.get(type);
          if (list) list.push(index);
          else this.byType!.set(type, [index]);
        }
      });
    }
    return this.byType;
  }

  private async applyBatch(batch: RecordedEvent[]): Promise<void> {
    if (batch.length === 0) return;
    this.current = { first: batch[0], last: batch[batch.length - 1], size: batch.length };
    this.seen += batch.length;
    const erasures = this.options.erasures;
    if (erasures && !this.erasing && batch.some((e) => erasures.types.includes(e.type))) this.erasing = true;
    // Another process sharing the store (the CLI next to the server) may have moved a checkpoint;
    // while documents are held back, this process's own view is the one that counts. Rereading
    // them only saves redundant work (documents skip events at or below their own position), so
    // under a stream of small live batches it is done at most every CHECKPOINT_RELOAD_MS.
    if (this.pendingCount === 0 && Date.now() - this.checkpointsLoadedAt >= CHECKPOINT_RELOAD_MS) await this.loadCheckpoints();
    const last = batch[batch.length - 1].position;

    // One pass over the batch sorts the events each projection still has to apply.
    const checkpoints = this.projections.map((p) => this.checkpoints.get(p.name));
    const relevantTo: RecordedEvent[][] = this.projections.map(() => []);
    const byType = this.projectionsByType;
    for (const event of batch) {
      const handlers = byType.get(event.type);
      if (!handlers) continue;
      for (const index of handlers) {
        const checkpoint = checkpoints[index];
        if (checkpoint === undefined || event.position > checkpoint) relevantTo[index].push(event);
      }
    }

    for (let index = 0; index < this.projections.length; index++) {
      const relevant = relevantTo[index];
      if (relevant.length === 0) continue;
      const projection = this.projections[index];
      const collection = projection.collection.name;
      let held = this.pending.get(collection);
      if (!held) this.pending.set(collection, (held = new Map()));
      const idsOf = relevant.map((e) => projection.idsOf(e));
      const toLoad: string[] = [];
      const loading = new Set<string>();
      for (const ids of idsOf) {
        for (const id of ids) {
          if (held.has(id) || loading.has(id)) continue;
          loading.add(id);
          toLoad.push(id);
        }
      }
      const stored = toLoad.length > 0 ? await this.readStore.getMany<object>(collection, toLoad) : [];
      for (const id of toLoad) held.set(id, { doc: null, position: null, dirty: false, previous: null });
      this.pendingCount += toLoad.length;
      for (const s of stored) held.set(s.id, { doc: s.doc, position: s.position, dirty: false, previous: s.doc });
      for (let k = 0; k < relevant.length; k++) {
        const event = relevant[k];
        // Worked out for the first document that applies the event, shared by the others.
        let prepared: { value: unknown } | undefined;
        const ids = projection.followIds ? await this.followed(projection, held, event, idsOf[k]) : idsOf[k];
        for (const id of ids) {
          const current = held.get(id)!;
          if (current.position !== null && current.position >= event.position) continue;
          prepared ??= { value: projection.prepare?.(event) };
          current.doc = projection.evolve(current.doc, event, id, prepared.value);
          current.position = event.position;
          current.dirty = true;
        }
      }
    }
    this.pendingUpTo = last;
    this.pendingEvents += batch.length;

    // Bulk projections apply their events and move their own checkpoint in one transaction of
    // their store: a crash before the documents are written replays those events, which the
    // documents apply (their checkpoint is older) and the bulk store skips (its own is not).
    for (const projection of this.bulkProjections) {
      const checkpoint = this.checkpoints.get(projection.name);
      if (checkpoint !== undefined && checkpoint >= last) continue;
      const relevant = batch.filter((e) => (checkpoint === undefined || e.position > checkpoint) && projection.handles.includes(e.type));
      await projection.apply(relevant, last);
      this.checkpoints.set(projection.name, last);
    }

    const catchingUp = batch.length >= this.batchSize;
    if (!catchingUp || this.pendingEvents >= this.writeBehindEvents) await this.flush();
    else this.scheduleIdleFlush();
    this.current = undefined;
    // Batches made smaller by failures (each committed at once) go back to full size at the head.
    if (this.reducedBatchSize !== undefined) {
      const head = await this.events.headPosition();
      if (head === undefined || last >= head) this.restoreBatchSize();
    }
    // A batch short of full is the log's head: the replay, if any, is over.
    if (!catchingUp) await this.storeCaughtUp();
  }

  /**
   * The documents `idsOf` named, then those Projection.followIds finds in them (as they are before
   * the event), loaded into `held` if they are not there yet.
   */
  private async followed(projection: Projection, held: Map<string, PendingDocument>, event: RecordedEvent, ids: string[]): Promise<string[]> {
    const more = projection.followIds!(event, (id) => (held.get(id)?.doc ?? null) as never).filter((id) => !ids.includes(id));
    if (more.length === 0) return ids;
    const toLoad = more.filter((id) => !held.has(id));
    if (toLoad.length > 0) {
      for (const id of toLoad) held.set(id, { doc: null, position: null, dirty: false, previous: null });
      this.pendingCount += toLoad.length;
      for (const s of await this.readStore.getMany<object>(projection.collection.name, toLoad)) held.set(s.id, { doc: s.doc, position: s.position, dirty: false, previous: s.doc });
    }
    return [...ids, ...more];
  }

  /** Commits the held documents with the checkpoints they reach, then wakes the waiters. */
  private async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const upTo = this.pendingUpTo;
    if (upTo === undefined) return;
    const writes: { collection: string; ops: WriteOperation[] }[] = [];
    for (const [collection, held] of this.pending) {
      const ops: WriteOperation[] = [];
      for (const [id, entry] of held) {
        if (!entry.dirty) continue;
        ops.push(entry.doc === null ? { type: 'delete', id } : { type: 'put', id, doc: entry.doc, position: entry.position!, previous: entry.previous });
      }
      if (ops.length > 0) writes.push({ collection, ops });
    }
    const checkpoints = this.projections
      .filter((p) => { const c = this.checkpoints.get(p.name); return c === undefined || c < upTo; })
      .map((p) => ({ name: p.name, position: upTo }));
    await this.readStore.commit({ writes, checkpoints });
    if (this.failures > 0) {
      this.logger.info({ after: this.failures, upTo: upTo.toString() }, 'projector applied the batch that failed; going on');
      this.failures = 0;
    }
    for (const { name } of checkpoints) this.checkpoints.set(name, upTo);
    if (this.erasing) {
      this.erasing = false;
      this.options.erasures?.committed();
    }
    this.discardPending();
    if (upTo > this.processedUpTo) this.processedUpTo = upTo;
    this.wakeWaiters();
  }

  /**
   * Back at the log's head after failures: everything is committed, so the subscription is
   * replaced by one with full batches (outside the handler: closing waits for it to return).
   */
  private restoreBatchSize(): void {
    this.reducedBatchSize = undefined;
    this.logger.info({ batchSize: this.fullBatchSize }, 'projector reached the head after failed batches; back to full batches');
    setImmediate(() => {
      if (this.stopped) return;
      const old = this.subscription;
      this.subscription = undefined;
      void (async () => {
        await old?.close();
        if (!this.stopped && !this.subscription) await this.subscribe();
      })().catch((error) => {
        if (!this.stopped) this.failed(error, 'projector could not resubscribe', false);
      });
    });
  }

  private scheduleIdleFlush(): void {
    // Silence is counted from the last full batch: while batches keep coming (a catch-up that
    // yields to the event loop now and then), the timer moves on instead of cutting the held
    // documents into small commits every WRITE_BEHIND_IDLE_FLUSH_MS.
    if (this.flushTimer) {
      this.flushTimer.refresh();
      return;
    }
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      // Silence after full batches: the log ended on a full batch, so the replay is over too.
      this.serially(async () => { await this.flush(); await this.storeCaughtUp(); }).catch((error) => {
        // Start over from the stored checkpoints, as after a failed batch.
        const failed = this.subscription;
        this.subscription = undefined;
        void failed?.close();
        if (!this.stopped) this.failed(error, 'projector could not write its documents');
      });
    }, WRITE_BEHIND_IDLE_FLUSH_MS);
  }

  private discardPending(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending = new Map();
    this.pendingCount = 0;
    this.pendingEvents = 0;
    this.pendingUpTo = undefined;
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
