import { DomainError } from '@app/domain';
import type { GlobalPosition } from '../ports/event-store.port';
import { type ClientEvent, EventQueue, type QueueCapabilities, type QueuedEvent } from './event-queue';
import type { NarrowPredicate } from './narrow-predicate';

/** Zulip's DEFAULT_EVENT_QUEUE_TIMEOUT_SECS (10 minutes) and MAX_QUEUE_TIMEOUT_SECS (7 days). */
export const IDLE_EVENT_QUEUE_TIMEOUT_SECS = 600;
export const MAX_QUEUE_TIMEOUT_SECS = 7 * 24 * 3600;
/** Zulip's MOBILE_EVENT_QUEUE_TIMEOUT_SECS (12 hours): POST /register's `idle_queue_timeout: "mobile"`. */
export const MOBILE_EVENT_QUEUE_TIMEOUT_SECS = 12 * 3600;

/** POST /register's `idle_queue_timeout` (feature level 481): seconds, or "mobile". */
export type IdleQueueTimeout = number | 'mobile';

/**
 * How long a queue may stay idle, in seconds (the register answers it as `idle_queue_timeout_secs`).
 * `idle_queue_timeout` (Zulip 12.0, feature level 481): "mobile" is 12 hours, a number of seconds
 * is capped at 7 days. Without it, the older `queue_lifespan_secs` as this server has always read
 * it (0 or absent: 10 minutes; otherwise clamped to [10 minutes, 7 days]).
 */
export function queueTimeoutSecs(idleQueueTimeout: IdleQueueTimeout | undefined, queueLifespanSecs?: number): number {
  if (idleQueueTimeout === 'mobile') return MOBILE_EVENT_QUEUE_TIMEOUT_SECS;
  if (idleQueueTimeout !== undefined) return Math.min(idleQueueTimeout, MAX_QUEUE_TIMEOUT_SECS);
  return queueLifespanSecs ? Math.max(IDLE_EVENT_QUEUE_TIMEOUT_SECS, Math.min(queueLifespanSecs, MAX_QUEUE_TIMEOUT_SECS)) : IDLE_EVENT_QUEUE_TIMEOUT_SECS;
}
/** A long poll with nothing to say gets a heartbeat event after this long (Zulip: about 45–60 s). */
export const HEARTBEAT_MS = 50_000;

/** zerver/lib/exceptions.py BadEventQueueIdError. */
export class BadEventQueueIdError extends DomainError {
  constructor(queueId: string) {
    super(`Bad event queue ID: ${queueId}`, 'BAD_EVENT_QUEUE_ID', 400, { queue_id: queueId });
  }
}

export type EventQueuesOptions = {
  heartbeatMs?: number;
  /** How often idle queues are collected (Zulip's EVENT_QUEUE_GC_FREQ_MSECS: every minute). */
  gcIntervalMs?: number;
  now?: () => number;
  /**
   * Prefix of queue ids, unique per process (Zulip: the server's start time). EventsModule adds
   * random characters to the start time, so that a restarted process or another API instance
   * never hands out an id a client still holds from an earlier one.
   */
  instanceId?: string;
};

/**
 * The event queues this process holds (Zulip's clients dict in zerver/tornado/event_queue.py),
 * indexed by user for delivery. A queue lives in one process only: another API instance does not
 * know its id and answers BAD_EVENT_QUEUE_ID, upon which clients register again.
 */
export class EventQueues {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private counter = 0;
  private readonly now: () => number;
  private readonly heartbeatMs: number;
  private readonly instanceId: string;
  private gcTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: EventQueuesOptions = {}) {
    this.now = options.now ?? Date.now;
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.instanceId = options.instanceId ?? String(Math.floor(Date.now() / 1000));
  }

  startCollecting(): void {
    if (this.gcTimer) return;
    this.gcTimer = setInterval(() => this.collectIdle(), this.options.gcIntervalMs ?? 60_000);
    this.gcTimer.unref?.();
  }

  stop(): void {
    if (this.gcTimer) clearInterval(this.gcTimer);
    this.gcTimer = undefined;
    for (const queue of this.queues.values()) queue.cancelPoll();
    this.queues.clear();
    this.byUser.clear();
  }

  /**
   * A new queue, still registering (it buffers until `open`). Its idle timeout: `queueTimeoutSecs`
   * of the register's `idle_queue_timeout` (or `queue_lifespan_secs`).
   */
  create(args: {
    userId: number;
    realmId: number;
    eventTypes: string[] | null;
    idleQueueTimeout?: IdleQueueTimeout;
    queueLifespanSecs?: number;
    capabilities?: QueueCapabilities;
    narrow?: NarrowPredicate;
  }): EventQueue {
    const secs = queueTimeoutSecs(args.idleQueueTimeout, args.queueLifespanSecs);
    const queue = new EventQueue({
      id: `${this.instanceId}:${++this.counter}`,
      userId: args.userId,
      realmId: args.realmId,
      eventTypes: args.eventTypes,
      lifespanMs: secs * 1000,
      now: this.now(),
      capabilities: args.capabilities,
      narrow: args.narrow,
    });
    this.queues.set(queue.id, queue);
    let mine = this.byUser.get(queue.userId);
    if (!mine) this.byUser.set(queue.userId, (mine = new Set()));
    mine.add(queue);
    return queue;
  }

  get size(): number {
    return this.queues.size;
  }

  /** The caller's queue, or BAD_EVENT_QUEUE_ID (also for another user's queue: its existence is not revealed). */
  ownedBy(queueId: string, userId: number): EventQueue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.userId !== userId) throw new BadEventQueueIdError(queueId);
    return queue;
  }

  get(queueId: string): EventQueue | undefined {
    return this.queues.get(queueId);
  }

  delete(queueId: string): void {
    const queue = this.queues.get(queueId);
    if (!queue) return;
    queue.cancelPoll();
    this.queues.delete(queueId);
    const mine = this.byUser.get(queue.userId);
    mine?.delete(queue);
    if (mine && mine.size === 0) this.byUser.delete(queue.userId);
  }

  /** Delivers an event to every queue of the given users that wants its type. */
  deliver(userIds: Iterable<number>, event: ClientEvent, position?: GlobalPosition, perQueue?: (queue: EventQueue) => ClientEvent | undefined): void {
    for (const userId of userIds) {
      const mine = this.byUser.get(userId);
      if (!mine) continue;
      for (const queue of mine) queue.push(perQueue?.(queue) ?? event, position);
    }
  }

  /** The users holding at least one queue in this process. */
  usersWithQueues(): Iterable<number> {
    return this.byUser.keys();
  }

  hasQueues(userId: number): boolean {
    return this.byUser.has(userId);
  }

  /**
   * GET /events (zerver/tornado/event_queue.py fetch_events): acknowledges up to `lastEventId`,
   * answers what is queued after it at once, or (unless `dontBlock`) waits for the next event;
   * a poll that waits `heartbeatMs` gets a heartbeat event.
   */
  async fetch(queue: EventQueue, lastEventId: number | undefined, dontBlock: boolean, onClose?: (cancel: () => void) => void): Promise<QueuedEvent[]> {
    queue.lastTouched = this.now();
    if (lastEventId !== undefined) {
      if (lastEventId < queue.newestPruned) {
        throw new DomainError(`An event newer than ${lastEventId} has already been pruned!`);
      }
      if (queue.size > 0 && lastEventId > queue.lastEventId) {
        throw new DomainError(`Event ${lastEventId} was not in this queue`);
      }
      queue.prune(lastEventId);
    }
    const ready = queue.contentsAfter(lastEventId ?? -1);
    if (ready.length > 0 || dontBlock) return ready;
    const waiting = queue.waitForEvents(this.heartbeatMs, () => queue.push({ type: 'heartbeat' }));
    onClose?.(waiting.cancel);
    const events = await waiting.events;
    queue.lastTouched = this.now();
    return events;
  }

  /**
   * Removes queues idle (no poll pending) for longer than their idle timeout; `now` is for tests
   * that look ahead (the collector runs every minute on the process's clock).
   */
  collectIdle(now = this.now()): string[] {
    const expired: string[] = [];
    for (const queue of this.queues.values()) {
      if (!queue.hasPoll && now - queue.lastTouched > queue.lifespanMs) expired.push(queue.id);
    }
    for (const id of expired) this.delete(id);
    return expired;
  }
}
