import { displayTopic } from '@app/domain';
import type { GlobalPosition } from '../ports/event-store.port';
import type { NarrowPredicate } from './narrow-predicate';

/** An event as a client receives it from GET /events (Zulip's event dicts), before its queue id. */
export type ClientEvent = { type: string; [field: string]: unknown };
export type QueuedEvent = ClientEvent & { id: number };

type Poll = { resolve: (events: QueuedEvent[]) => void; timer: NodeJS.Timeout | undefined };

/** The `client_capabilities` of POST /register that change what a queue receives (Zulip's ClientDescriptor). */
export type QueueCapabilities = {
  /** Channel typing notifications are sent only to clients that declare them. */
  streamTypingNotifications?: boolean;
  /** Without it, a message to the empty topic shows the realm's display name for it. */
  emptyTopicName?: boolean;
  /** `realm_linkifiers` events reach only queues that accept RFC 6570 URL templates (Zulip 7.0). */
  linkifierUrlTemplate?: boolean;
  /** `presence` events with the modern `presences` only (Zulip 11's simplified_presence_events). */
  simplifiedPresenceEvents?: boolean;
  /** The register's `slim_presence`: legacy `presence` events without `email`. */
  slimPresence?: boolean;

  /** `realm_emoji` `add` / `update_one` (feature level 491) instead of the whole dict in `update`. */
  individualEmojiChanges?: boolean;

  /** Deactivated user groups stay visible (`user_group` update events); without it they are removed. */
  includeDeactivatedGroups?: boolean;
};

export type EventQueueOptions = {
  id: string;
  userId: number;
  realmId: number;
  /** null: every type (Zulip's event_types omitted). */
  eventTypes: string[] | null;
  lifespanMs: number;
  now: number;
  capabilities?: QueueCapabilities;
  /** The register's `narrow`, for message events. */
  narrow?: NarrowPredicate;
};

/**
 * One client's event queue (zerver/tornado/event_queue.py ClientDescriptor + EventQueue).
 *
 * Ids start at 0 and grow by one; a GET /events with `last_event_id` acknowledges (prunes) every
 * event up to it. Events from the global log carry their log position: while the queue is being
 * registered it only buffers them, and `open(floor)` keeps those after the position the initial
 * state was read at (see RegisterCoordinator) — later deliveries at or below the floor are dropped
 * the same way, so the state plus the queued events is never a duplicate or a gap.
 */
export class EventQueue {
  readonly id: string;
  readonly userId: number;
  readonly realmId: number;
  readonly lifespanMs: number;
  private readonly eventTypes: Set<string> | null;
  private readonly capabilities: QueueCapabilities;
  private readonly narrow: NarrowPredicate | undefined;
  private events: QueuedEvent[] = [];
  private nextId = 0;
  /** Newest event id pruned by an acknowledgement (Zulip's newest_pruned_id). */
  private newestPrunedId = -1;
  private poll: Poll | undefined;
  /** undefined while registering: events are buffered with their positions. */
  private floor: GlobalPosition | undefined;
  private buffered: { event: ClientEvent; position: GlobalPosition | undefined }[] | undefined = [];
  lastTouched: number;
  constructor(options: EventQueueOptions) {
    this.id = options.id;
    this.userId = options.userId;
    this.realmId = options.realmId;
    this.eventTypes = options.eventTypes === null ? null : new Set(options.eventTypes);
    this.lifespanMs = options.lifespanMs;
    this.lastTouched = options.now;
    this.capabilities = options.capabilities ?? {};
    this.narrow = options.narrow;
  }

  /** The queue's client sees deactivated user groups (client_capabilities.include_deactivated_groups). */
  get includesDeactivatedGroups(): boolean {
    return this.capabilities.includeDeactivatedGroups === true;
  }

  wants(type: string): boolean {
    // Heartbeats reach every queue (Zulip's ClientDescriptor.accepts_event).
    if (this.eventTypes === null || type === 'heartbeat') return true;
    // The deprecated muted_topics event is not sent to clients that asked for user_topic.
    if (type === 'muted_topics' && this.eventTypes.has('user_topic')) return false;
    return this.eventTypes.has(type);
  }

  /** ClientDescriptor.accepts_event and process_message_event's per-client adjustments. */
  private adapt(event: ClientEvent): ClientEvent | undefined {
    if (!this.wants(event.type)) return undefined;
    if (event.type === 'typing' && event.message_type === 'stream' && !this.capabilities.streamTypingNotifications) return undefined;
    if (event.type === 'realm_linkifiers' && !this.capabilities.linkifierUrlTemplate) return undefined;
    if (event.type === 'message' && this.narrow && !this.narrow((event.message ?? {}) as Record<string, unknown>, (event.flags ?? []) as string[])) return undefined;
    if (event.type === 'user_group' && event.op === 'update') {
      // A deactivation is a removal for clients that drop deactivated groups; a rename of a
      // deactivated group (marked `deactivated` by its mapper, as Zulip marks it) is not theirs to see.
      if ((event.data as { deactivated?: boolean } | undefined)?.deactivated === true && !this.capabilities.includeDeactivatedGroups) {
        return { type: 'user_group', op: 'remove', group_id: event.group_id };
      }
      if ('deactivated' in event) {
        if (event.deactivated === true && !this.capabilities.includeDeactivatedGroups) return undefined;
        const { deactivated: _marker, ...rest } = event;
        return rest as ClientEvent;
      }
    }
    if (event.type === 'message' && !this.capabilities.emptyTopicName) {
      const message = event.message as { type?: string; subject?: string } | undefined;
      if (message?.type === 'stream' && message.subject === '') return { ...event, message: { ...message, subject: displayTopic('', false) } };
    }
    if (event.type === 'presence' && event.presences !== undefined) return this.presenceShape(event);
    if (event.type === 'realm_emoji' && event.op !== 'update') {
      // process_realm_emoji_event: the single change, or the legacy whole dict.
      const { realm_emoji: all, ...single } = event;
      return this.capabilities.individualEmojiChanges ? single : { type: 'realm_emoji', op: 'update', realm_emoji: all };
    }
    return event;
  }

  /** A `presence` event carries both shapes (presenceClientEvent); the client gets the one it asked for. */
  private presenceShape({ presences, ...legacy }: ClientEvent): ClientEvent {
    if (this.capabilities.simplifiedPresenceEvents) return { type: 'presence', presences };
    if (!this.capabilities.slimPresence) return legacy;
    const { email: _email, ...slim } = legacy;
    return slim as ClientEvent;
  }

  /** Ends registration: events at or below `floor` are already in the state the client got. */
  open(floor: GlobalPosition): void {
    this.floor = floor;
    const buffered = this.buffered ?? [];
    this.buffered = undefined;
    for (const { event, position } of buffered) this.push(event, position);
  }

  get isOpen(): boolean {
    return this.buffered === undefined;
  }

  /** Adds an event (`position`: where it comes from in the global log; none for typing, heartbeats). */
  push(incoming: ClientEvent, position?: GlobalPosition): void {
    const event = this.adapt(incoming);
    if (!event) return;
    if (this.buffered !== undefined) {
      this.buffered.push({ event, position });
      return;
    }
    if (position !== undefined && this.floor !== undefined && position <= this.floor) return;
    this.events.push({ ...event, id: this.nextId++ });
    this.wake();
  }

  get size(): number {
    return this.events.length;
  }

  get lastEventId(): number {
    return this.nextId - 1;
  }

  get hasPoll(): boolean {
    return this.poll !== undefined;
  }

  /** Acknowledges every event up to `lastEventId` (Zulip's EventQueue.prune). */
  prune(lastEventId: number): void {
    let drop = 0;
    while (drop < this.events.length && this.events[drop].id <= lastEventId) drop++;
    if (drop > 0) {
      this.newestPrunedId = this.events[drop - 1].id;
      this.events = this.events.slice(drop);
    }
  }

  get newestPruned(): number {
    return this.newestPrunedId;
  }

  /** The events after `lastEventId` (all of them when it is -1 or older). */
  contentsAfter(lastEventId: number): QueuedEvent[] {
    return this.events.filter((e) => e.id > lastEventId);
  }

  /**
   * Waits for the next event (resolving with every queued event) or for `timeoutMs` (resolving
   * with none). A new long poll replaces a pending one, which answers empty (Zulip disconnects
   * the old handler the same way).
   */
  waitForEvents(timeoutMs: number, onTimeout: () => void): { events: Promise<QueuedEvent[]>; cancel: () => void } {
    this.cancelPoll();
    let poll: Poll | undefined;
    const events = new Promise<QueuedEvent[]>((resolve) => {
      const created: Poll = { resolve, timer: undefined };
      created.timer = setTimeout(() => {
        if (this.poll === created) onTimeout();
      }, timeoutMs);
      created.timer.unref?.();
      this.poll = poll = created;
    });
    return { events, cancel: () => this.cancelPoll(poll) };
  }

  /** Answers a pending long poll (or only `which`, if it is still the pending one) with nothing: client gone, queue deleted. */
  cancelPoll(which?: Poll): void {
    const poll = this.poll;
    if (!poll || (which !== undefined && which !== poll)) return;
    this.poll = undefined;
    clearTimeout(poll.timer);
    poll.resolve([]);
  }

  private wake(): void {
    const poll = this.poll;
    if (!poll) return;
    this.poll = undefined;
    clearTimeout(poll.timer);
    poll.resolve([...this.events]);
  }
}
