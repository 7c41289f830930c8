import {
  AccessDeniedError,
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  type AppendExpectedRevision,
  type AppendResult as EsdbAppendResult,
  type JSONType,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import {
  type AllSubscription,
  type AllSubscriptionHandler,
  type AppendResult,
  type EventMetadata,
  type EventStorePort,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamRevision,
  StreamRevisionConflictError,
} from '@app/application';
import { packPosition, unpackPosition } from './esdb-position';

export { packPosition, unpackPosition } from './esdb-position';

/**
 * The fields of a recorded event as @eventstore/db-client 6.x delivers them (its `RecordedEvent`
 * type is a conditional union; this is the shape every member shares). `created` is a `Date`: the
 * client converts the server's .NET ticks to milliseconds (utils/convertGrpcEvent.js). `position`
 * is always set on `$all` reads and subscriptions, and on stream reads from servers >= 22.6.0.
 */
type EsdbRecordedEvent = {
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  isJson: boolean;
  data: unknown;
  metadata: unknown;
  created: Date;
  position?: Position;
};
type EsdbResolvedEvent = { event?: unknown; commitPosition?: bigint };

/** How long a partial batch may wait for more events before it is delivered anyway. */
const IDLE_FLUSH_MS = 5;
/** Page size used when scanning `$all` past system events. */
const SCAN_PAGE = 256;

const recordedOf = (resolved: EsdbResolvedEvent) => resolved.event as EsdbRecordedEvent | undefined;

/**
 * Packed `$all` position of an event. The client's samples and tests take `event.position` as the
 * event's place in `$all`; `commitPosition` is the fallback the resolved event carries on its own.
 */
const positionOf = (event: EsdbRecordedEvent, resolved: EsdbResolvedEvent): GlobalPosition => {
  if (event.position) return packPosition(event.position);
  if (resolved.commitPosition !== undefined) return packPosition({ commit: resolved.commitPosition, prepare: resolved.commitPosition });
  throw new Error(`EventStoreDB returned no position for event ${event.id} (server older than 22.6?)`);
};

/**
 * Events the port exposes: the client docs' "ignore system events" recipe skips types starting
 * with `$`; we also skip `$`-streams (metadata, projections, stats) and non-JSON payloads, since
 * this adapter only ever writes JSON events to user streams.
 */
const isUserEvent = (event: EsdbRecordedEvent) => event.isJson && !event.type.startsWith('$') && !event.streamId.startsWith('$');

const toRecorded = (event: EsdbRecordedEvent, position: GlobalPosition): RecordedEvent => {
  if (!event.isJson) throw new Error(`event ${event.id} in stream ${event.streamId} is not JSON`);
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position,
    type: event.type,
    data: event.data as object,
    // The client JSON-parses custom metadata and leaves it undefined when empty.
    metadata: (event.metadata ?? {}) as EventMetadata,
    recordedAt: event.created.toISOString(),
  };
};

const toExpectedRevision = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : expected;

/**
 * What /health says about a failed probe. Outside insecure mode, reading `$all` (the projectors'
 * subscription, the log's head, this probe) needs a user in `$admins` or `$ops` (or an ACL on
 * `$all` granting it): a plain user is refused with AccessDenied, which the client reports as
 * "Access denied" only, so the remedy is spelled out.
 */
export const healthDetail = (error: unknown): string => {
  const message = (error as Error)?.message ?? String(error);
  if (error instanceof AccessDeniedError || (error as { type?: string })?.type === 'access-denied') {
    return `AccessDenied: the EventStoreDB user in ESDB_URL may not read $all (${message}). Use a user of the $admins or $ops group, e.g. esdb://admin:<password>@host:2113?tls=true (docs/operations.md).`;
  }
  return message;
};

/**
 * The event store on EventStoreDB (gRPC client 6.x). Streams map one to one; the global log is
 * `$all` without system events, its positions packed into one bigint (see esdb-position.ts).
 */
export class EsdbEventStore implements EventStorePort {
  private readonly subscriptions = new Set<AllSubscription>();

  constructor(readonly client: EventStoreDBClient) {}

  static connect(connectionString: string): EsdbEventStore {
    return new EsdbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  async appendToStream(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    // The given ids become the ESDB event ids: the server treats a repeated append of the same ids
    // as idempotent (a retry is answered as the original was, instead of appending twice).
    const data = events.map((event) =>
      jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata as JSONType }),
    );
    let result: EsdbAppendResult;
    try {
      result = await this.client.appendToStream(streamId, data, { expectedRevision: toExpectedRevision(options.expectedRevision) });
    } catch (error) {
      // With the default throwOnAppendFailure, a revision mismatch rejects with
      // WrongExpectedVersionError, whose actualVersion is the stream's revision or 'no_stream'.
      if (error instanceof WrongExpectedVersionError) {
        throw new StreamRevisionConflictError(streamId, options.expectedRevision, error.actualVersion);
      }
      throw error;
    }
    if (!result.success) {
      // Only reachable with throwOnAppendFailure=false in the connection string: then the client
      // resolves with success=false instead of rejecting. Its nextExpectedRevision is not the
      // stream's revision on every path: client 6.2's batchAppend answers
      // BigInt(hasCurrentStreamRevision()), i.e. 1 or 0 whatever the stream holds. The stream's
      // actual revision is read back instead.
      throw new StreamRevisionConflictError(streamId, options.expectedRevision, await this.streamRevision(streamId));
    }
    // AppendResult.position is the log position of the write (emmett's integration tests assert its
    // commit equals the last appended event's $all commit position). It is absent when the server
    // sends no position, e.g. for an idempotently repeated append: then read the last event back.
    const position = result.position
      ? packPosition(result.position)
      : await this.positionAtRevision(streamId, result.nextExpectedRevision);
    return { nextExpectedRevision: result.nextExpectedRevision, position };
  }

  private async positionAtRevision(streamId: string, revision: StreamRevision): Promise<GlobalPosition> {
    for await (const resolved of this.client.readStream(streamId, { direction: FORWARDS, fromRevision: revision, maxCount: 1 })) {
      const event = recordedOf(resolved);
      if (event) return positionOf(event, resolved);
    }
    throw new Error(`stream ${streamId} has no event at revision ${revision}`);
  }

  async readStream(streamId: string, options: { fromRevision?: StreamRevision; maxCount?: number } = {}): Promise<ReadStreamResult> {
    // As in the embedded store: no maxCount (or a negative one) reads to the end, 0 reads nothing.
    const maxCount = options.maxCount === undefined || options.maxCount < 0 ? undefined : options.maxCount;
    const fromRevision = options.fromRevision === undefined || options.fromRevision < 0n ? START : options.fromRevision;
    const events: RecordedEvent[] = [];
    if (maxCount !== 0) {
      try {
        const read = this.client.readStream(streamId, {
          direction: FORWARDS,
          fromRevision,
          ...(maxCount === undefined ? {} : { maxCount }),
        });
        for await (const resolved of read) {
          const event = recordedOf(resolved);
          if (event) events.push(toRecorded(event, positionOf(event, resolved)));
        }
      } catch (error) {
        // Documented way to detect a missing stream: iterating the read throws StreamNotFoundError.
        if (error instanceof StreamNotFoundError) return { events: [], revision: 'no_stream' };
        throw error;
      }
    }
    // The port reports the stream's current revision, not the revision of the window read. A read
    // that returned fewer events than asked for reached the end, so its last event is the head.
    const last = events[events.length - 1];
    if (last && (maxCount === undefined || events.length < maxCount)) return { events, revision: last.revision };
    return { events, revision: await this.streamRevision(streamId) };
  }

  /** Revision of the last event of a stream: one event read backwards from END. */
  private async streamRevision(streamId: string): Promise<StreamRevision | 'no_stream'> {
    try {
      for await (const resolved of this.client.readStream(streamId, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
        const event = recordedOf(resolved);
        if (event) return event.revision;
      }
      return 'no_stream';
    } catch (error) {
      if (error instanceof StreamNotFoundError) return 'no_stream';
      throw error;
    }
  }

  async readAll(options: { after?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]> {
    if (options.maxCount === 0) return [];
    const limit = options.maxCount < 0 ? Number.POSITIVE_INFINITY : options.maxCount;
    const result: RecordedEvent[] = [];
    // readAll's fromPosition is inclusive (the client's own test reads maxCount 1 from an event's
    // position and gets that same event back), so every page skips positions <= the last one seen.
    // System events are filtered here (readAll has no server-side filter), so a page may yield
    // fewer user events than it read; keep paging until the page is full or `$all` ends.
    let floor = options.after ?? -1n;
    let from: ReadPosition = options.after === undefined ? START : unpackPosition(options.after);
    while (result.length < limit) {
      const pageSize = Math.min(limit - result.length + 1, SCAN_PAGE);
      let read = 0;
      let lastSeen: GlobalPosition | undefined;
      for await (const resolved of this.client.readAll({ direction: FORWARDS, fromPosition: from, maxCount: pageSize, resolveLinkTos: false })) {
        read += 1;
        const event = recordedOf(resolved);
        if (!event) continue;
        const position = positionOf(event, resolved);
        if (position <= floor) continue;
        lastSeen = position;
        if (isUserEvent(event) && result.length < limit) result.push(toRecorded(event, position));
      }
      if (read < pageSize || lastSeen === undefined) break; // reached the end of $all
      floor = lastSeen;
      from = unpackPosition(lastSeen);
    }
    return result;
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    // Newest user event: read `$all` backwards from END a page at a time, past system events.
    let from: ReadPosition = END;
    for (;;) {
      let read = 0;
      let oldest: Position | undefined;
      let found: GlobalPosition | undefined;
      for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: SCAN_PAGE, resolveLinkTos: false })) {
        read += 1;
        const event = recordedOf(resolved);
        if (!event) continue;
        const position = positionOf(event, resolved);
        if (found === undefined && isUserEvent(event)) found = position;
        oldest = unpackPosition(position);
      }
      if (found !== undefined) return found;
      if (read < SCAN_PAGE || oldest === undefined) return undefined; // reached the start of $all
      from = oldest;
    }
  }

  subscribeToAll(options: { after?: GlobalPosition; batchSize?: number }, handler: AllSubscriptionHandler): AllSubscription {
    const after = options.after;
    const batchSize = Math.max(1, options.batchSize ?? 1000);
    // Catch-up subscription; "the positions provided to the subscriptions are exclusive" (client
    // docs), and we still drop anything at or before `after` below in case a server differs.
    // excludeSystemEvents() filters on the server by event type (regex ^[^$]).
    const subscription = this.client.subscribeToAll({
      fromPosition: after === undefined ? START : unpackPosition(after),
      filter: excludeSystemEvents(),
      resolveLinkTos: false,
    });
    // Errors reach the iterator below; this listener only keeps a late 'error' (emitted after the
    // loop has stopped listening) from becoming an uncaught exception.
    subscription.on('error', () => undefined);

    let active = true;
    let failure: { error: unknown } | undefined;
    let pending: RecordedEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delivering: Promise<void> = Promise.resolve();
    let cancelled: Promise<void> | undefined;

    const cancel = () =>
      (cancelled ??= (async () => {
        // unsubscribe() cancels the gRPC call (the iterator then ends); destroy() makes sure the
        // Readable is finished even if the call had not started yet.
        await subscription.unsubscribe().catch(() => undefined);
        subscription.destroy();
      })());

    const stop = (error?: { error: unknown }) => {
      if (error && active && !failure) failure = error;
      active = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      void cancel();
    };

    // Batches are handed over one at a time through this promise chain, so the handler never
    // runs concurrently, whoever (the reader, the idle timer, caught-up) asked for the flush.
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      delivering = delivering.then(async () => {
        while (active && pending.length > 0) {
          const batch = pending.slice(0, batchSize);
          pending = pending.slice(batch.length);
          try {
            await handler(batch);
          } catch (error) {
            stop({ error });
          }
        }
      });
      return delivering;
    };

    // Servers >= 23.10 announce the end of the catch-up phase; deliver what is pending once the
    // events buffered ahead of that notice have been read (setImmediate lets the iterator drain).
    subscription.on('caughtUp', () =>
      setImmediate(() => {
        if (active && pending.length > 0) void flush();
      }),
    );

    const run = async () => {
      try {
        for await (const resolved of subscription) {
          if (!active) break;
          const event = recordedOf(resolved);
          if (!event || !isUserEvent(event)) continue;
          const position = positionOf(event, resolved);
          if (after !== undefined && position <= after) continue;
          pending.push(toRecorded(event, position));
          if (pending.length >= batchSize) await flush();
          else timer ??= setTimeout(() => void flush(), IDLE_FLUSH_MS);
        }
        if (active) stop({ error: new Error('EventStoreDB ended the $all subscription') });
      } catch (error) {
        // After close() the cancellation surfaces here as an error or a premature close: ignore it.
        if (active) stop({ error });
      } finally {
        stop();
        await cancel();
        await delivering;
      }
      if (failure) throw failure.error;
    };

    const done = run();
    const handle: AllSubscription = {
      done,
      close: async () => {
        stop();
        await done.catch(() => undefined);
      },
    };
    this.subscriptions.add(handle);
    done.then(
      () => this.subscriptions.delete(handle),
      () => this.subscriptions.delete(handle),
    );
    return handle;
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    try {
      // One event backwards from the end of $all: cheap, and needs a working connection.
      for await (const _ of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, deadline: 2_000 })) {
        // nothing to do
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: healthDetail(error) };
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }
}
