import type { EventStorePort, RecordedEvent } from '../ports/event-store.port';
import type { ReadStorePort } from '../ports/read-store.port';
import type { ClientEvent } from './event-queue';
import type { EventQueue } from './event-queue';

/** A recorded event typed by its domain event (mapper signatures). */
export type Recorded<E extends { type: string; data: object }> = RecordedEvent<E['type'], E['data']>;

/**
 * What one domain event means for connected clients: events for users. `perUser` shapes the event
 * for each recipient (a message's flags); `perQueue` for one queue (local echo's local_message_id).
 */
export type ClientEventDelivery = {
  userIds: Iterable<number>;
  event: ClientEvent;
  perUser?: (userId: number) => ClientEvent;
  perQueue?: (queue: EventQueue, event: ClientEvent) => ClientEvent | undefined;
};

/** What mappers may read: the read models, which reflect the log at least up to the mapped event. */
export type ClientEventMapperContext = {
  readStore: ReadStorePort;
  /** For facts the read models no longer hold (a deleted message's recipients: its own stream). */
  events: EventStorePort;
  /** Active users of an organization (realm-wide events go to them). */
  activeUserIds(realmId: number): Promise<number[]>;
  /** Whether this process holds a queue of the user (to skip per-user reads for nobody). */
  hasQueues(userId: number): boolean;
  /** The users holding a queue in this process (any organization): who a public channel's history readers can be. */
  usersWithQueues(): Iterable<number>;
};

export type ClientEventMapper<E extends RecordedEvent = RecordedEvent> = (
  event: E,
  context: ClientEventMapperContext,
) => ClientEventDelivery[] | Promise<ClientEventDelivery[]>;

/**
 * A mapper as an area lists it under a domain event type, its parameter typed by that event
 * (`(e: Recorded<LinkifierAdded>, c) => …`): any such mapper is one of these. The registry calls
 * a mapper only with events of the type it is listed under (`map` dispatches by type).
 */
export type ListedClientEventMapper = ClientEventMapper<never>;

/** An area's mappers by domain event type. */
export type ClientEventMapperList = Record<string, ListedClientEventMapper>;

/**
 * Domain event type → client events (Zulip's send_event calls, one per mutation), built by `of`
 * from every area's `<area>.client-events.ts` (its descriptor's `clientEvents`, AREAS in areas.ts); a domain event
 * without a mapper produces no client event, one with several runs them all, in order.
 */
export class ClientEventMappers {
  private readonly mappers = new Map<string, ClientEventMapper[]>();

  /** The registry of every area's client events. */
  static of(areas: Iterable<{ clientEvents(): ClientEventMapperList }>): ClientEventMappers {
    const mappers = new ClientEventMappers();
    for (const area of areas) mappers.registerAll(area.clientEvents());
    return mappers;
  }

  register(type: string, mapper: ListedClientEventMapper): this {
    const list = this.mappers.get(type) ?? [];
    // Listed under `type`, it is only called with events of that type (see `map`).
    list.push(mapper as ClientEventMapper);
    this.mappers.set(type, list);
    return this;
  }

  registerAll(mappers: ClientEventMapperList): this {
    for (const [type, mapper] of Object.entries(mappers)) this.register(type, mapper);
    return this;
  }

  has(type: string): boolean {
    return this.mappers.has(type);
  }

  types(): string[] {
    return [...this.mappers.keys()].sort();
  }

  async map(event: RecordedEvent, context: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const mappers = this.mappers.get(event.type);
    if (!mappers) return [];
    const out: ClientEventDelivery[] = [];
    for (const mapper of mappers) out.push(...(await mapper(event, context)));
    return out;
  }
}
