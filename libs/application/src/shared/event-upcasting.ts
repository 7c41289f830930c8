import type {
  AllSubscription,
  AllSubscriptionHandler,
  AppendResult,
  EventStorePort,
  EventToAppend,
  ExpectedRevision,
  GlobalPosition,
  ReadStreamResult,
  RecordedEvent,
  StreamRevision,
} from '../ports/event-store.port';
import { type MetricsPort, NO_METRICS } from '../ports/metrics.port';

/**
 * Event versions. Every stored event carries `metadata.schemaVersion`. When an event type's
 * payload shape changes, its current version goes up by one and an upcaster from the previous
 * version is registered; events are never rewritten in the store, they are upcast when read, one
 * version at a time, so that handlers, deciders and projections only ever see the current shape.
 */
export type Upcaster = {
  type: string;
  /** Turns `fromVersion` into `fromVersion + 1`. */
  fromVersion: number;
  upcast(data: any, event: RecordedEvent): object;
};

export class UpcasterRegistry {
  private readonly byType = new Map<string, Map<number, Upcaster>>();

  constructor(upcasters: readonly Upcaster[]) {
    for (const upcaster of upcasters) {
      let versions = this.byType.get(upcaster.type);
      if (!versions) this.byType.set(upcaster.type, (versions = new Map()));
      if (versions.has(upcaster.fromVersion)) throw new Error(`two upcasters for ${upcaster.type} v${upcaster.fromVersion}`);
      versions.set(upcaster.fromVersion, upcaster);
    }
  }

  /** The version new events of this type are written with (1 unless an upcaster raised it). */
  currentVersion(type: string): number {
    const versions = this.byType.get(type);
    return versions ? Math.max(...versions.keys()) + 1 : 1;
  }

  /** Event types whose shape has changed at least once, with their current version. */
  versionedTypes(): { type: string; currentVersion: number }[] {
    return [...this.byType.keys()].sort().map((type) => ({ type, currentVersion: this.currentVersion(type) }));
  }

  /** The event in its current shape (the same object when it already is). */
  upcast(event: RecordedEvent): RecordedEvent {
    const versions = this.byType.get(event.type);
    if (!versions) return event;
    let version = event.metadata?.schemaVersion ?? 1;
    let data = event.data as object;
    for (let upcaster = versions.get(version); upcaster; upcaster = versions.get(version)) {
      data = upcaster.upcast(data, event);
      version++;
    }
    if (data === event.data) return event;
    return { ...event, data, metadata: { ...event.metadata, schemaVersion: version, upcastFrom: event.metadata?.schemaVersion ?? 1 } };
  }
}

/**
 * The event store as the application uses it: reads come back upcast to the current shapes, and
 * appends are stamped with each type's current version (writers only produce current shapes).
 * `raw` is the store underneath, for backups, which copy the log verbatim.
 */
export class UpcastingEventStore implements EventStorePort {
  constructor(
    readonly raw: EventStorePort,
    readonly registry: UpcasterRegistry,
    private readonly metrics: MetricsPort = NO_METRICS,
  ) {}

  private stamped(events: EventToAppend[]): EventToAppend[] {
    return events.map((e) => {
      const version = this.registry.currentVersion(e.type);
      return version === e.metadata.schemaVersion ? e : { ...e, metadata: { ...e.metadata, schemaVersion: version } };
    });
  }

  async appendToStream(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const stamped = this.stamped(events);
    const started = performance.now();
    const result = await this.raw.appendToStream(streamId, stamped, options);
    this.metrics.eventStoreAppend((performance.now() - started) / 1000);
    return result;
  }

  /** The raw store's, when it has one, with the appended events stamped as appendToStream stamps them. */
  get appendWithNextId(): EventStorePort['appendWithNextId'] {
    const raw = this.raw;
    if (!raw.appendWithNextId) return undefined;
    return async (sequence, build) => {
      const started = performance.now();
      const result = await raw.appendWithNextId!(sequence, (id) => {
        const { streamId, events } = build(id);
        return { streamId, events: this.stamped(events) };
      });
      this.metrics.eventStoreAppend((performance.now() - started) / 1000);
      return result;
    };
  }

  async readStream(streamId: string, options?: { fromRevision?: StreamRevision; maxCount?: number }): Promise<ReadStreamResult> {
    const result = await this.raw.readStream(streamId, options);
    return { ...result, events: result.events.map((e) => this.registry.upcast(e)) };
  }

  async readAll(options: { after?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]> {
    return (await this.raw.readAll(options)).map((e) => this.registry.upcast(e));
  }

  headPosition(): Promise<GlobalPosition | undefined> {
    return this.raw.headPosition();
  }

  /** The raw store's count, when it has one (upcasting changes no number of events). */
  get countEvents(): EventStorePort['countEvents'] {
    const raw = this.raw;
    return raw.countEvents ? (options) => raw.countEvents!(options) : undefined;
  }

  subscribeToAll(options: { after?: GlobalPosition; batchSize?: number }, handler: AllSubscriptionHandler): AllSubscription {
    return this.raw.subscribeToAll(options, (events) => handler(events.map((e) => this.registry.upcast(e))));
  }

  health(): Promise<{ ok: boolean; detail?: string }> {
    return this.raw.health();
  }

  close(): Promise<void> {
    return this.raw.close();
  }
}

/** A wrapper that reads differently from what it stores (upcasting, sealing), with the store underneath. */
type WrappingStore = EventStorePort & { raw: EventStorePort; wrapsEvents: true };

/**
 * The store underneath every wrapper (upcasting, and the message texts' sealing): what backups,
 * exports and imports copy verbatim, and what tests use to write an event as an old version did.
 */
export function rawEventStore(store: EventStorePort): EventStorePort {
  let current = store;
  while (current instanceof UpcastingEventStore || (current as Partial<WrappingStore>).wrapsEvents === true) current = (current as WrappingStore).raw;
  return current;
}
