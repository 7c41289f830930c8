import { Inject, Injectable, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CURRENT_SCHEMA_VERSION, type Decider, type DomainEvent, type SnapshotCodec } from '@app/domain';
import {
  type EventStorePort,
  type EventToAppend,
  type GlobalPosition,
  type RecordedEvent,
  type StreamRevision,
  StreamRevisionConflictError,
} from '../ports/event-store.port';
import type { RandomPort } from '../ports/random.port';
import type { SnapshotStorePort } from '../ports/snapshot-store.port';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, EVENT_STORE, LOGGER, RANDOM, SNAPSHOT_STORE } from '../ports/tokens';
import { METRICS, type MetricsPort, NO_METRICS } from '../ports/metrics.port';
import { UpcastingEventStore } from './event-upcasting';
import { deterministicEventId } from './event-ids';
import { ServerBusyError } from './application.errors';
import { KeyedLock } from './keyed-lock';

export type RunResult<E> = { newEvents: E[]; position: GlobalPosition | undefined };

export type RunOptions = {
  /**
   * The stream cannot exist yet (it is named after an id just allocated): the first attempt
   * decides on the initial state and appends at `no_stream` without reading the stream. If the
   * stream exists after all, that append conflicts and the next attempt reads it as usual.
   */
  newStream?: boolean;
  /**
   * The stream guards no invariant (a per-user log of changes such as flag changes): decide on the
   * initial state and append at `any`, never reading a stream that only grows.
   */
  stateless?: boolean;
  /** This run's retry policy, over the runner's (a decider whose commands may wait longer or shorter). */
  retry?: Partial<RetryPolicy>;
};

/** Where the runner reports snapshots it could not use (the app's pino logger). */
export type SnapshotWarnings = { warn(details: Record<string, unknown>, message: string): void };

/**
 * How long a command keeps retrying appends that another process beat it to (in one process the
 * stream's lock keeps them from happening): a budget in time, and a full-jitter exponential backoff
 * between attempts (a random wait below min(maxDelayMs, baseDelayMs × 2^(attempt-1))), so that
 * writers that collided do not collide again in step.
 */
export type RetryPolicy = { budgetMs: number; baseDelayMs: number; maxDelayMs: number };

/** The retry's clock, sleep and jitter ([0, 1)); tests give a fake one. */
export type RetryTimer = { now(): number; sleep(ms: number): Promise<void>; jitter(): number };

export const DEFAULT_COMMAND_RETRY_BUDGET_MS = 5000;

const realTimer: RetryTimer = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  jitter: () => Math.random(),
};

/** One command waiting to be decided: built from the state or given, with its own command id and metadata. */
type Job = { command: unknown; metadata: Record<string, unknown>; commandId: string };
/** What a run answers: its events and the append's position, or its own error. */
type Outcome<E> = RunResult<E> | { error: unknown };
/** A run queued for its stream's next batch. */
type Waiting = Job & {
  // The deciders of one stream differ in their command and event types; a batch only groups runs of one decider.
  decider: Decider<any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  options: RunOptions;
  settle(outcome: Outcome<DomainEvent>): void;
};

const single = <E>(outcomes: Outcome<E>[]): RunResult<E> => {
  const [outcome] = outcomes;
  if ('error' in outcome) throw outcome.error;
  return outcome;
};

/** `items` cut into runs of neighbours that `same` pairs, in order. */
function consecutiveGroups<T>(items: readonly T[], same: (a: T, b: T) => boolean): T[][] {
  const groups: T[][] = [];
  for (const item of items) {
    const last = groups[groups.length - 1];
    if (last && same(last[0], item)) last.push(item);
    else groups.push([item]);
  }
  return groups;
}

/** What one read of a stream gave: the folded state, the revision to append at, what was read. */
type Loaded<S> = {
  state: S;
  revision: StreamRevision | 'no_stream';
  /** Events folded on top of the snapshot (or of the initial state). */
  folded: number;
  /** The last event folded (where a new snapshot would be taken). */
  last?: RecordedEvent;
};

/**
 * JSON text of a snapshot's state. A Map, a Set or a Date would not survive the round trip
 * (JSON.stringify writes `{}` or a string for them), so they are refused here: such a decider
 * must give an encode/decode pair (SnapshotCodec).
 */
function snapshotJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (raw instanceof Map || raw instanceof Set || raw instanceof Date) {
      throw new Error(`a ${raw.constructor.name} (at "${key}") is not JSON: give the decider a snapshot encode/decode`);
    }
    return v;
  });
}

/**
 * The write path every command handler uses: read the stream, fold it, decide, append at the
 * revision that was read, and on a concurrent append start over.
 *
 * Writers of one stream wait their turn (docs/consistency-boundaries.md): in this process a run
 * holds the stream's lock (KeyedLock) from before its read until its append is done, so two
 * commands of this process never race to one revision; only another process (the split layout,
 * several API instances) can append in between. Then the run reads again after a jittered backoff,
 * for as long as its time budget (COMMAND_RETRY_BUDGET_MS, counted from when it holds the lock)
 * allows; past it the client gets 503 with Retry-After (ServerBusyError), never a conflict.
 *
 * Snapshots bound the read (docs/operations.md, "Command reads and snapshots"): for a decider with a SnapshotCodec the
 * runner starts from the stream's latest snapshot and reads only the events after it; whenever a
 * read folds SNAPSHOT_EVERY events or more it stores a new snapshot. So a command reads at most
 * about SNAPSHOT_EVERY events (plus those appended by commands running at the same time), however
 * long the stream. The append still expects the revision just read: concurrency is unchanged.
 */
@Injectable()
export class DeciderRunner {
  /** A read that folded this many events (or more) stores a snapshot. */
  static readonly SNAPSHOT_EVERY = 20;

  /** Tests set a smaller interval. */
  snapshotEvery = DeciderRunner.SNAPSHOT_EVERY;
  retryPolicy: RetryPolicy;
  /** Tests give a fake clock. */
  timer: RetryTimer = realTimer;
  /** One queue per stream id (per runner: one per process, as the split layout's applications each have theirs). */
  readonly locks = new KeyedLock();
  /** Per stream, the runs waiting for its next batch (see enqueue). */
  private readonly batches = new Map<string, Waiting[]>();
  private readonly versions = new WeakMap<object, string>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStorePort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Optional() @Inject(SNAPSHOT_STORE) private readonly snapshots?: SnapshotStorePort,
    @Optional() @Inject(LOGGER) private readonly logger?: SnapshotWarnings,
    @Optional() @Inject(APP_CONFIG) config?: Pick<AppConfig, 'commandRetryBudgetMs'>,
    @Optional() @Inject(METRICS) private readonly metrics: Pick<MetricsPort, 'commandConflict'> = NO_METRICS,
  ) {
    this.retryPolicy = { budgetMs: config?.commandRetryBudgetMs ?? DEFAULT_COMMAND_RETRY_BUDGET_MS, baseDelayMs: 2, maxDelayMs: 100 };
  }

  async run<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    streamId: string,
    command: C | ((state: S) => C),
    metadata: Record<string, unknown> = {},
    options: RunOptions = {},
  ): Promise<RunResult<E>> {
    // A stateless run appends at `any`: it never conflicts, so it needs no turn.
    if (options.stateless) return this.attempt(decider, streamId, [this.job(command, metadata)], options).then(single);
    // A blind first append (newStream) decides on the initial state: it cannot share a read.
    if (options.newStream) return this.locks.run(streamId, () => this.attempt(decider, streamId, [this.job(command, metadata)], options)).then(single);
    return this.enqueue(decider, streamId, command, metadata, options);
  }

  /**
   * Joins the stream's waiting batch, or starts one. A batch takes the stream's lock, and when its
   * turn comes it takes every run that joined it meanwhile: one read, each command decided in the
   * order asked on the state its predecessors left, one append (group commit). Runs that arrive
   * while a batch holds the lock form the next batch. So N writers of one stream cost one read and
   * one append per turn rather than N, and their throughput grows with N instead of falling.
   */
  private enqueue<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    streamId: string,
    command: C | ((state: S) => C),
    metadata: Record<string, unknown>,
    options: RunOptions,
  ): Promise<RunResult<E>> {
    return new Promise<RunResult<E>>((resolve, reject) => {
      const waiting: Waiting = { decider, options, ...this.job(command, metadata), settle: (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome as RunResult<E>)) };
      const batch = this.batches.get(streamId);
      if (batch) {
        batch.push(waiting);
        return;
      }
      this.batches.set(streamId, [waiting]);
      void this.locks.run(streamId, async () => {
        const taken = this.batches.get(streamId)!;
        this.batches.delete(streamId);
        // Runs of one stream share a decision only under the same decider and retry policy.
        for (const group of consecutiveGroups(taken, (a, b) => a.decider === b.decider && a.options.retry === b.options.retry)) {
          try {
            const outcomes = await this.attempt(group[0].decider, streamId, group, group[0].options);
            group.forEach((run, i) => run.settle(outcomes[i]));
          } catch (error) {
            for (const run of group) run.settle({ error });
          }
        }
      });
    });
  }

  private job<C, S>(command: C | ((state: S) => C), metadata: Record<string, unknown>): Job {
    return { command: command as Job['command'], metadata, commandId: this.commandId() };
  }

  /**
   * Decides every job on one read of the stream, each on the state the jobs before it left (a job
   * whose decision throws fails alone and leaves the state as it was), and appends all their
   * events at once at the revision read. On a concurrent append (another process) everything is
   * read and decided again after a jittered backoff, within the retry budget. One outcome per job.
   */
  private async attempt<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, jobs: readonly Job[], options: RunOptions): Promise<Outcome<E>[]> {
    const started = this.timer.now();
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = options.stateless
        ? { state: decider.initialState(), revision: 'any' as const }
        : attempt === 1 && options.newStream
          ? { state: decider.initialState(), revision: 'no_stream' as const }
          : await this.load(decider, streamId);
      const expected = revision === 'no_stream' ? 'no_stream' : revision;
      let current = state;
      const decided: Array<{ newEvents: E[] } | { error: unknown }> = [];
      const toAppend: EventToAppend[] = [];
      for (const job of jobs) {
        try {
          // A command may be built from the state (e.g. to take the stream's next id).
          const concrete = typeof job.command === 'function' ? (job.command as (s: S) => C)(current) : (job.command as C);
          const newEvents = decider.decide(concrete, current);
          // The next job decides on the state these events make, folded as a later read would fold them.
          for (const event of newEvents) current = decider.evolve(current, { type: event.type, data: JSON.parse(JSON.stringify(event.data)) } as unknown as E);
          toAppend.push(...this.toAppend(newEvents, job.commandId, streamId, expected, job.metadata));
          decided.push({ newEvents });
        } catch (error) {
          decided.push({ error });
        }
      }
      if (toAppend.length === 0) return decided.map((d) => ('error' in d ? d : { newEvents: d.newEvents, position: undefined }));
      try {
        const { position } = await this.store.appendToStream(streamId, toAppend, { expectedRevision: expected });
        await this.forget(decider.snapshot?.forgets, streamId, toAppend);
        return decided.map((d) => ('error' in d ? d : { newEvents: d.newEvents, position: d.newEvents.length > 0 ? position : undefined }));
      } catch (error) {
        if (!(error instanceof StreamRevisionConflictError)) throw error;
        // A blind first append (newStream) found the stream there after all: no race, read it now.
        if (attempt === 1 && options.newStream) continue;
        const { budgetMs, baseDelayMs, maxDelayMs } = { ...this.retryPolicy, ...options.retry };
        const delay = Math.floor(this.timer.jitter() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
        if (this.timer.now() - started + delay > budgetMs) {
          this.metrics.commandConflict('gave_up');
          this.logger?.warn({ streamId, attempts: attempt, budgetMs, commands: jobs.length }, 'command gave up: the stream stayed busy past its retry budget');
          throw new ServerBusyError();
        }
        this.metrics.commandConflict('retried');
        await this.timer.sleep(delay);
      }
    }
  }

  /**
   * `run` with `newStream` on a stream named after an id just taken from `sequence`, the id and
   * the append in one write (EventStorePort.appendWithNextId): decided on the initial state, the
   * id taken only if the append lands. The decider must decide at least one event there. Should
   * the stream exist after all, the command runs on it as `run` would (reading it). Undefined when
   * the store cannot: the caller takes the id from the IdAllocatorPort and calls `run`.
   */
  async runWithNextId<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    sequence: string,
    streamOf: (id: number) => string,
    commandOf: (id: number) => C,
    metadata: Record<string, unknown> = {},
  ): Promise<(RunResult<E> & { id: number }) | undefined> {
    const appendWithNextId = this.store.appendWithNextId;
    if (!appendWithNextId) return undefined;
    const commandId = this.commandId();
    let newEvents: E[] = [];
    let taken: number | undefined;
    try {
      const { id, position } = await appendWithNextId.call(this.store, sequence, (id) => {
        taken = id;
        const streamId = streamOf(id);
        newEvents = decider.decide(commandOf(id), decider.initialState());
        return { streamId, events: this.toAppend(newEvents, commandId, streamId, 'no_stream', metadata) };
      });
      return { id, newEvents, position };
    } catch (error) {
      if (!(error instanceof StreamRevisionConflictError) || taken === undefined) throw error;
      return { id: taken, ...(await this.run(decider, streamOf(taken), commandOf(taken), metadata)) };
    }
  }

  /**
   * A stream's current state, folded (from its snapshot when there is one), appending nothing and
   * taking no lock: facts for a command that appends to another stream (a human's rename on their
   * own stream is checked against the users directory). Stale by the time the command appends if
   * the stream moves on meanwhile, as any read-model fact is.
   */
  async read<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string): Promise<S> {
    return (await this.load(decider, streamId)).state;
  }

  /**
   * Deletes the snapshots the appended events make something to erase (SnapshotCodec.forgets: a
   * deleted message's). After the append, so that a snapshot saved by this very read goes too; a
   * failure is logged and the command still succeeds (its events are in the log), and no later
   * snapshot of the stream can hold the text, as the fold forgets it too.
   */
  private async forget(forgets: SnapshotCodec<unknown>['forgets'], streamId: string, appended: readonly EventToAppend[]): Promise<void> {
    if (!forgets || !this.snapshots) return;
    const streamIds = [...new Set(appended.flatMap((event) => forgets({ type: event.type, data: event.data })))];
    if (streamIds.length === 0) return;
    try {
      await this.snapshots.delete(streamIds);
    } catch (error) {
      this.logger?.warn({ streamId, streams: streamIds, error: (error as Error).message }, 'could not delete the snapshots of erased data');
    }
  }

  /** Time-ordered where the random source offers it, so the event ids are too (deterministicEventId). */
  private commandId(): string {
    return this.random.timeOrderedUuid?.() ?? this.random.uuid();
  }

  private toAppend(newEvents: DomainEvent[], commandId: string, streamId: string, expected: StreamRevision | 'no_stream' | 'any', metadata: Record<string, unknown>): EventToAppend[] {
    return newEvents.map((event, index) => ({
      id: deterministicEventId(commandId, streamId, String(expected), index),
      type: event.type,
      data: event.data,
      metadata: { schemaVersion: CURRENT_SCHEMA_VERSION, commandId, ...metadata },
    }));
  }

  /** The stream folded: from its snapshot when there is a usable one, else from the start. */
  private async load<C, E, S>(decider: Decider<C, E, S>, streamId: string): Promise<{ state: S; revision: StreamRevision | 'no_stream' }> {
    const codec = decider.snapshot;
    if (!codec || !this.snapshots) return this.fold(decider, decider.initialState(), await this.store.readStream(streamId));
    const version = this.versionOf(decider);
    const loaded = (await this.fromSnapshot(decider, streamId, version)) ?? this.fold(decider, decider.initialState(), await this.store.readStream(streamId));
    if (loaded.folded >= this.snapshotEvery && loaded.last) {
      const last = loaded.last;
      try {
        const state = snapshotJson(codec.encode ? codec.encode(loaded.state) : loaded.state);
        await this.snapshots.save({ streamId, decider: codec.name, version, revision: last.revision, eventId: last.id, state });
      } catch (error) {
        // A snapshot is an optimisation: the command goes on, and the next one reads the stream again.
        this.logger?.warn({ streamId, decider: codec.name, error: (error as Error).message }, 'could not store a snapshot');
      }
    }
    return loaded;
  }

  /**
   * The snapshot's state with the events after it, or undefined when there is no snapshot of
   * this version, or it does not match the stream (the event at its revision has another id: the
   * log was replaced), or it cannot be decoded. The read starts at the snapshot's own revision to
   * check that event; events come through the store's upcasting like any other read.
   */
  private async fromSnapshot<C, E, S>(decider: Decider<C, E, S>, streamId: string, version: string): Promise<Loaded<S> | undefined> {
    const codec = decider.snapshot!;
    let snapshot;
    try {
      snapshot = await this.snapshots!.load(streamId, codec.name);
    } catch (error) {
      this.logger?.warn({ streamId, decider: codec.name, error: (error as Error).message }, 'could not load a snapshot');
      return undefined;
    }
    if (!snapshot || snapshot.version !== version) return undefined;
    const read = await this.store.readStream(streamId, { fromRevision: snapshot.revision });
    const [at, ...after] = read.events;
    if (!at || at.id !== snapshot.eventId || at.revision !== snapshot.revision) return undefined;
    let state: S;
    try {
      const json = JSON.parse(snapshot.state);
      state = codec.decode ? codec.decode(json) : (json as S);
    } catch (error) {
      this.logger?.warn({ streamId, decider: codec.name, error: (error as Error).message }, 'could not decode a snapshot');
      return undefined;
    }
    const loaded = this.fold(decider, state, { events: after, revision: read.revision });
    return { ...loaded, last: loaded.last ?? at };
  }

  private fold<C, E, S>(decider: Decider<C, E, S>, initial: S, read: { events: RecordedEvent[]; revision: StreamRevision | 'no_stream' }): Loaded<S> {
    let state = initial;
    for (const e of read.events) state = decider.evolve(state, { type: e.type, data: e.data } as unknown as E);
    return { state, revision: read.revision, folded: read.events.length, last: read.events[read.events.length - 1] };
  }

  /**
   * The version stamped on a decider's snapshots: its declared version, a digest of its fold's
   * source (evolve, initialState, encode, decode) so that a changed fold never trusts an old snapshot even
   * if nobody bumped the version, and the upcasters' current event versions (a new upcaster
   * changes the shapes the fold sees).
   */
  private versionOf<C, E, S>(decider: Decider<C, E, S>): string {
    let version = this.versions.get(decider);
    if (version === undefined) {
      const codec = decider.snapshot!;
      const upcasting = this.store instanceof UpcastingEventStore ? JSON.stringify(this.store.registry.versionedTypes()) : '';
      const digest = createHash('sha256')
        .update(`${decider.evolve.toString()}\n${decider.initialState.toString()}\n${codec.encode?.toString() ?? ''}\n${codec.decode?.toString() ?? ''}\n${upcasting}`)
        .digest('hex')
        .slice(0, 16);
      version = `${codec.version}:${digest}`;
      this.versions.set(decider, version);
    }
    return version;
  }
}
