import {
  type AllSubscription,
  type AllSubscriptionHandler,
  type AppendResult,
  type EventStorePort,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamRevision,
  StreamRevisionConflictError,
} from '@app/application';

type NamespaceState = { origin: Promise<GlobalPosition | undefined>; head: GlobalPosition | undefined };

/** One state per namespace and process: every application of one test shares its origin and head. */
const namespaces = new Map<string, NamespaceState>();

/** Pages read from the shared log per step while skipping other namespaces' events. */
const PAGE = 500;

/**
 * Many isolated installations on one shared event store (`npm run test:servers`: every API test
 * gets its own, on one EventStoreDB): stream names carry the prefix `<namespace>.`, and the global
 * log is this namespace's events only — read from the log's head when the namespace was first
 * opened in this process, the others' events skipped, stream names given back without the prefix.
 *
 * The namespace's head is the newest of its own events this process has appended or read, which
 * holds as long as one process writes the namespace (a test and its applications). Not for
 * production: there each installation has its store to itself.
 */
export class NamespacedEventStore implements EventStorePort {
  private readonly prefix: string;
  private readonly state: NamespaceState;

  constructor(
    private readonly inner: EventStorePort,
    namespace: string,
  ) {
    this.prefix = `${namespace}.`;
    let state = namespaces.get(namespace);
    if (!state) {
      state = { origin: inner.headPosition(), head: undefined };
      namespaces.set(namespace, state);
    }
    this.state = state;
  }

  private own(events: RecordedEvent[]): RecordedEvent[] {
    const own = events.filter((e) => e.streamId.startsWith(this.prefix)).map((e) => ({ ...e, streamId: e.streamId.slice(this.prefix.length) }));
    this.saw(own);
    return own;
  }

  private saw(own: RecordedEvent[]): void {
    const last = own.at(-1)?.position;
    if (last !== undefined && (this.state.head === undefined || last > this.state.head)) this.state.head = last;
  }

  async appendToStream(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    await this.state.origin;
    try {
      const result = await this.inner.appendToStream(this.prefix + streamId, events, options);
      if (this.state.head === undefined || result.position > this.state.head) this.state.head = result.position;
      return result;
    } catch (error) {
      if (error instanceof StreamRevisionConflictError) throw new StreamRevisionConflictError(streamId, error.expected, error.actual);
      throw error;
    }
  }

  async readStream(streamId: string, options?: { fromRevision?: StreamRevision; maxCount?: number }): Promise<ReadStreamResult> {
    const result = await this.inner.readStream(this.prefix + streamId, options);
    return { ...result, events: result.events.map((e) => ({ ...e, streamId })) };
  }

  async readAll(options: { after?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]> {
    let cursor = options.after ?? (await this.state.origin);
    const found: RecordedEvent[] = [];
    for (;;) {
      const page = await this.inner.readAll({ after: cursor, maxCount: Math.max(options.maxCount, PAGE) });
      for (const event of this.own(page)) {
        if (found.length >= options.maxCount) break;
        found.push(event);
      }
      if (found.length >= options.maxCount || page.length < Math.max(options.maxCount, PAGE)) return found;
      cursor = page.at(-1)!.position;
    }
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    await this.state.origin;
    return this.state.head;
  }

  subscribeToAll(options: { after?: GlobalPosition; batchSize?: number }, handler: AllSubscriptionHandler): AllSubscription {
    let closed = false;
    let subscription: AllSubscription | undefined;
    const done = this.state.origin.then(async (origin) => {
      if (closed) return;
      subscription = this.inner.subscribeToAll({ ...options, after: options.after ?? origin }, async (events) => {
        const own = this.own(events);
        if (own.length > 0) await handler(own);
      });
      await subscription.done;
    });
    return {
      done,
      close: async () => {
        closed = true;
        await subscription?.close();
      },
    };
  }

  health(): Promise<{ ok: boolean; detail?: string }> {
    return this.inner.health();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
