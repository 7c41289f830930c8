/**
 * The event store port: streams with optimistic concurrency, and one global log in append order.
 *
 * Positions are `bigint`s that order the global log. They are opaque to application code except
 * for comparison: the embedded adapter uses its row sequence, the EventStoreDB adapter packs
 * ($all commit position, prepare position) into one number so that bigint order is log order.
 */
export type GlobalPosition = bigint;
/** Zero-based revision of the last event in a stream. */
export type StreamRevision = bigint;

export type ExpectedRevision = 'any' | 'no_stream' | StreamRevision;

export type EventMetadata = {
  /** Payload schema version; older versions are upcast when read. */
  schemaVersion: number;
  /** Correlates every event of one command (and retries of one append). */
  commandId?: string;
  [key: string]: unknown;
};

export type EventToAppend = {
  /** A UUID. Deterministic ids make a retried append idempotent (see deterministicEventId). */
  id: string;
  type: string;
  data: object;
  metadata: EventMetadata;
};

export type RecordedEvent<Type extends string = string, Data extends object = any> = {
  id: string;
  streamId: string;
  revision: StreamRevision;
  position: GlobalPosition;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  /** ISO time at which the store recorded the event. */
  recordedAt: string;
};

export type AppendResult = { nextExpectedRevision: StreamRevision; position: GlobalPosition };

export type ReadStreamResult = { events: RecordedEvent[]; revision: StreamRevision | 'no_stream' };

/** Thrown by appendToStream when the stream is not at the expected revision. */
export class StreamRevisionConflictError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: StreamRevision | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'StreamRevisionConflictError';
  }
}

/** What appendWithNextId appends under the id it took: a stream named after it, and its events. */
export type NewStreamAppend = { streamId: string; events: EventToAppend[] };

export type AllSubscriptionHandler = (events: RecordedEvent[]) => Promise<void>;

export interface AllSubscription {
  /** Stops delivery; resolves once no handler call is in flight. */
  close(): Promise<void>;
  /** Resolves when the subscription stops for good (closed, or failed with the error). */
  readonly done: Promise<void>;
}

export interface EventStorePort {
  /** Appends atomically; all-or-nothing. Throws StreamRevisionConflictError on a revision mismatch. */
  appendToStream(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;

  /**
   * Optional: takes the next id of the id sequence `sequence` (IdAllocatorPort.next, the same
   * sequence) and appends `build(id)` at `no_stream`, in one write transaction: the id is taken
   * only if the append lands. Offered only by a store that keeps the id sequences in its own
   * database (the embedded store, with the ids beside the events); elsewhere callers take the id
   * from the IdAllocatorPort and append. `build` runs synchronously inside the transaction and
   * must not return an empty list. Throws StreamRevisionConflictError when the stream exists.
   */
  appendWithNextId?(sequence: string, build: (id: number) => NewStreamAppend): Promise<AppendResult & { id: number }>;

  /** The whole stream (or from a revision), oldest first. */
  readStream(streamId: string, options?: { fromRevision?: StreamRevision; maxCount?: number }): Promise<ReadStreamResult>;

  /** A page of the global log strictly after `after` (from the start when undefined), in order. */
  readAll(options: { after?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]>;

  /**
   * Optional: a page of the global log strictly before `before` (from the head when undefined),
   * newest first. Offered by the embedded store (the boot check opens the log's newest sealed
   * event with it: docs/deployment.md); others leave it out.
   */
  readAllBackwards?(options: { before?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]>;

  /** Position of the newest event in the global log, or undefined when the log is empty. */
  headPosition(): Promise<GlobalPosition | undefined>;

  /**
   * Optional: how many events lie strictly after `after` and at or before `upTo`, exactly and
   * cheaply (an index count). A store whose positions are not event numbers and cannot count
   * cheaply (EventStoreDB: byte offsets packed as commit<<64|prepare) leaves it out; see
   * countEventsBetween for the fallback.
   */
  countEvents?(options: { after?: GlobalPosition; upTo: GlobalPosition }): Promise<number>;

  /**
   * Catch-up subscription to the global log: delivers every event after `after` in order, in
   * batches, then keeps delivering new events live. The handler is never called concurrently;
   * a handler error ends the subscription with that error.
   */
  subscribeToAll(options: { after?: GlobalPosition; batchSize?: number }, handler: AllSubscriptionHandler): AllSubscription;

  /** Adapter readiness for GET /health. */
  health(): Promise<{ ok: boolean; detail?: string }>;

  close(): Promise<void>;
}
