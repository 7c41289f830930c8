import type { EventStorePort, GlobalPosition, LiveReadModels, ReadModelLayout } from '@app/application';
import { cloneLayout, countEventsBetween } from '@app/application';
import { DomainError } from '@app/domain';
import { ALL_PROJECTIONS } from '../all-projections';
import { USER_MESSAGES_PROJECTION, userMessagesProjection } from '../messages/user-messages.projection';
import type { Projection } from '../shared/projection';
import { Projector, type ProjectorLogger } from '../shared/projector';

export type ProjectionStatus = {
  /** Projection (and checkpoint) name. */
  name: string;
  /** The collection it writes (the per-user message state has its own store). */
  collection: string;
  /** The read-model copy holding it (a SQLite file name in embedded mode). */
  copy: string;
  /** Position of the last event applied, null before the first one. */
  checkpoint: string | null;
  /** Events of the global log not applied yet (estimated past COUNT_READ_LIMIT on EventStoreDB). */
  lag: string;
};

export type RebuildPhase = 'replaying' | 'switching' | 'done' | 'failed';

export type RebuildProgress = {
  target: string;
  phase: RebuildPhase;
  copy: string;
  startedAt: string;
  finishedAt: string | null;
  /** Events replayed so far and the total to replay: counts of events, never raw log positions. */
  done: number;
  total: number;
  eventsPerSecond: number;
  etaSeconds: number | null;
  error: string | null;
};

export type RebuildListener = (progress: RebuildProgress) => void;

export class RebuildInProgressError extends DomainError {
  constructor(target: string) {
    super(`A rebuild of ${target} is already running.`);
  }
}

export class UnknownProjectionError extends DomainError {
  constructor(name: string) {
    super(`No projection named ${JSON.stringify(name).slice(0, 100)}; see the list of projections.`);
  }
}

export class RebuildNotSupportedError extends DomainError {}

export type ProjectionRebuilderOptions = {
  /** How often progress is sampled (ms). */
  progressIntervalMs?: number;
  batchSize?: number;
  now?: () => number;
  /** Runs once the copy has caught up, before the switch (tests write meanwhile). */
  beforeSwitch?: () => Promise<void>;
};

/**
 * Blue/green rebuilds of the read models. A rebuild opens a fresh, empty copy, runs a projector of
 * its own that replays the global log into it while the live copy keeps serving (and the live
 * projector keeps applying new writes to it), then switches:
 *
 * 1. wait until the rebuild projector has applied at least as much of the log as the live one —
 *    checked and switched in one synchronous step, so no event falls between the two copies;
 * 2. route the rebuilt collections (all, or one projection's) to the new copy (RoutingReadStore)
 *    and record the layout, so the next start opens the same copy;
 * 3. let the rebuild projector finish what arrived meanwhile (both projectors write the same
 *    documents deterministically; stores never move a document or checkpoint backwards), stop it;
 * 4. drop the old copy (or, for one projection, its collection in the old copy).
 */
export class ProjectionRebuilder {
  private running: RebuildProgress | undefined;
  private last: RebuildProgress | undefined;
  private task: Promise<RebuildProgress> | undefined;
  /** The rebuild's own projector while one runs (stopped when the process shuts down). */
  private active: Projector | undefined;

  constructor(
    private readonly events: EventStorePort,
    private readonly live: LiveReadModels,
    private readonly liveProjector: Projector | undefined,
    private readonly logger: ProjectorLogger,
    private readonly options: ProjectionRebuilderOptions = {},
    private readonly projections: Projection[] = ALL_PROJECTIONS,
  ) {}

  /** Every projection with its checkpoint and lag. */
  async list(): Promise<ProjectionStatus[]> {
    const head = await this.events.headPosition();
    const checkpoints = await this.live.readStore.getCheckpoints();
    const layout = this.live.readStore.currentLayout();
    // Counted in events (projections usually share a checkpoint: each distinct one is counted once).
    const counted = new Map<string, Promise<number>>();
    const lag = (checkpoint: GlobalPosition | undefined) => {
      const key = checkpoint?.toString() ?? '';
      if (!counted.has(key)) counted.set(key, countEventsBetween(this.events, checkpoint, head).then((r) => r.count));
      return counted.get(key)!;
    };
    const rows: ProjectionStatus[] = [];
    for (const p of this.projections) {
      rows.push({
        name: p.name,
        collection: p.collection.name,
        copy: layout.collections[p.collection.name] ?? layout.default,
        checkpoint: checkpoints[p.name]?.toString() ?? null,
        lag: (await lag(checkpoints[p.name])).toString(),
      });
    }
    rows.push({
      name: USER_MESSAGES_PROJECTION,
      collection: '(per-user message state)',
      copy: layout.checkpoints[USER_MESSAGES_PROJECTION] ?? layout.default,
      checkpoint: checkpoints[USER_MESSAGES_PROJECTION]?.toString() ?? null,
      lag: (await lag(checkpoints[USER_MESSAGES_PROJECTION])).toString(),
    });
    return rows;
  }

  /** The rebuild under way, or the last one that finished. */
  status(): RebuildProgress | undefined {
    return this.running ?? this.last;
  }

  /** Starts a rebuild in the background (the HTTP endpoint); progress through status(). */
  start(target = 'all'): RebuildProgress {
    this.check(target);
    this.task = this.rebuild(target);
    this.task.catch(() => undefined);
    return this.running!;
  }

  /** Nest shutdown hook: a rebuild under way is abandoned (its copy dropped; the live copy stays). */
  async onApplicationShutdown(): Promise<void> {
    await this.active?.stop().catch(() => undefined);
    await this.task?.catch(() => undefined);
  }

  /** Waits for the background rebuild, if any. */
  async settled(): Promise<RebuildProgress | undefined> {
    await this.task?.catch(() => undefined);
    return this.last;
  }

  private check(target: string): void {
    if (this.running) throw new RebuildInProgressError(this.running.target);
    if (!this.live.copies.supported) throw new RebuildNotSupportedError('Blue/green rebuilds are not available with this read store (see docs/operations.md).');
    if (target !== 'all' && target !== USER_MESSAGES_PROJECTION && !this.projections.some((p) => p.name === target)) throw new UnknownProjectionError(target);
  }

  /** Rebuilds `all` projections or the one named, blue/green; resolves when the switch is done. */
  async rebuild(target = 'all', listener: RebuildListener = () => undefined): Promise<RebuildProgress> {
    this.check(target);
    const now = this.options.now ?? Date.now;
    const startedMs = now();
    const progress: RebuildProgress = {
      target, phase: 'replaying', copy: '', startedAt: new Date(startedMs).toISOString(), finishedAt: null,
      done: 0, total: 0, eventsPerSecond: 0, etaSeconds: null, error: null,
    };
    this.running = progress;
    let rebuilder: Projector | undefined;
    let copyLabel: string | undefined;
    let switched = false;
    try {
      const copy = await this.live.copies.create();
      copyLabel = progress.copy = copy.label;
      const all = target === 'all';
      const documentProjections = all ? this.projections : this.projections.filter((p) => p.name === target);
      const withUserMessages = all || target === USER_MESSAGES_PROJECTION;
      rebuilder = new Projector(this.events, copy.readStore, documentProjections, this.logger, {
        waitTimeoutMs: Infinity,
        batchSize: this.options.batchSize,
        bulkProjections: withUserMessages ? [userMessagesProjection(copy.userMessageStore)] : [],
      });
      this.active = rebuilder;

      const headAtStart = await this.events.headPosition();
      const head = headAtStart ?? 0n;
      // In events: the replay's own count of the events it was handed, against the log's count
      // up to the head (never position differences, which on EventStoreDB are byte distances).
      progress.total = (await countEventsBetween(this.events, undefined, headAtStart)).count;
      const sample = () => {
        progress.done = Math.min(progress.total, rebuilder!.eventsSeen);
        const seconds = (now() - startedMs) / 1000;
        progress.eventsPerSecond = seconds > 0 ? Math.round(progress.done / seconds) : 0;
        progress.etaSeconds = progress.eventsPerSecond > 0 ? Math.max(0, Math.round((progress.total - progress.done) / progress.eventsPerSecond)) : null;
        listener({ ...progress });
      };
      sample();
      await rebuilder.start();
      const timer = setInterval(sample, this.options.progressIntervalMs ?? 200);
      try {
        await rebuilder.waitFor(head);
      } finally {
        clearInterval(timer);
      }
      // The copy is about to serve: out of its fresh-load mode (durable, WAL) first.
      await copy.readStore.caughtUp?.();
      sample();
      await this.options.beforeSwitch?.();

      progress.phase = 'switching';
      listener({ ...progress });
      const layout = this.layoutAfter(target, copy.label);
      const before = this.live.readStore.currentLayout();
      const oldDocuments = documentProjections.map((p) => ({ projection: p, store: this.live.readStore.storeForCollection(p.collection.name) }));
      const oldUserMessages = this.live.userMessages.store;
      // Switch only when the copy has applied at least what the live copy has (checked and
      // switched without yielding in between).
      let unused: string[] = [];
      for (;;) {
        const livePosition = this.liveProjector?.position ?? (await this.events.headPosition()) ?? 0n;
        if (rebuilder.position >= livePosition) {
          this.live.readStore.addCopy(copy);
          unused = this.live.readStore.switchTo(layout);
          if (withUserMessages) this.live.userMessages.switchTo(copy.userMessageStore);
          switched = true;
          break;
        }
        await rebuilder.waitFor(livePosition);
      }
      await this.live.copies.persistLayout(layout);
      await rebuilder.catchUp();
      await rebuilder.stop();
      rebuilder = undefined;

      // The old copy: dropped whole when nothing uses it any more, otherwise the rebuilt
      // projection's documents and checkpoint in it (unless the switch renamed the copy over
      // them: MongoDB, where the old and new stores then name the same collections).
      if (!all && !this.live.copies.renamesOverLive) {
        for (const { projection, store } of oldDocuments) {
          if (unused.includes(before.collections[projection.collection.name] ?? before.default)) continue;
          await store.dropCollection(projection.collection.name);
          await store.deleteCheckpoint(projection.name);
        }
        if (withUserMessages && !unused.includes(before.checkpoints[USER_MESSAGES_PROJECTION] ?? before.default)) {
          await oldUserMessages.reset(USER_MESSAGES_PROJECTION);
        }
      }
      for (const label of unused) await this.live.copies.drop(label);
      progress.phase = 'done';
    } catch (error) {
      progress.phase = 'failed';
      progress.error = (error as Error).message;
      this.logger.error({ err: error, target }, 'projection rebuild failed');
      await rebuilder?.stop().catch(() => undefined);
      if (!switched && copyLabel) await this.live.copies.drop(copyLabel).catch(() => undefined);
      throw error;
    } finally {
      this.active = undefined;
      progress.finishedAt = new Date(now()).toISOString();
      listener({ ...progress });
      this.last = { ...progress };
      this.running = undefined;
    }
    return { ...progress };
  }

  private layoutAfter(target: string, label: string): ReadModelLayout {
    if (target === 'all') return { default: label, collections: {}, checkpoints: {} };
    const layout = cloneLayout(this.live.readStore.currentLayout());
    if (target === USER_MESSAGES_PROJECTION) {
      layout.checkpoints[USER_MESSAGES_PROJECTION] = label;
      return layout;
    }
    const projection = this.projections.find((p) => p.name === target)!;
    layout.collections[projection.collection.name] = label;
    layout.checkpoints[projection.name] = label;
    return layout;
  }
}
