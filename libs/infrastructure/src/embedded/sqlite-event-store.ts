import type Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import {
  type AllSubscription,
  type AllSubscriptionHandler,
  type AppendResult,
  deepFreeze,
  type EventStorePort,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  type NewStreamAppend,
  type ReadStreamResult,
  type RecordedEvent,
  StreamRevisionConflictError,
} from '@app/application';

type EventRow = {
  position: number;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
};

/** What a queued write came to: its result, or the error it threw (its own writes rolled back). */
type Outcome = { value?: unknown; error?: unknown };

type QueuedWrite = {
  /** Writes the append, listing the rows it inserted in `written`. */
  write: (written: RawEventRow[]) => unknown;
  /** The rows inserted, kept once the group has committed (see recent). */
  written: RawEventRow[];
  /** How many statements it writes (more than one: a savepoint of its own). */
  statements: number;
  outcome: Outcome | undefined;
  done: (outcome: Outcome) => void;
};

/** The id allocator's sequences on the event store's connection, taken inside its group commits (SqliteIdAllocator). */
type IdSequences = {
  readonly db: Database.Database;
  beginGroup(): void;
  takeInGroup(sequence: string): number;
  giveBackInGroup(sequence: string, id: number): void;
  endGroup(): void;
  abandonGroup(): void;
};

type RawEventRow = [position: number, eventId: string, streamId: string, revision: number, type: string, data: string, metadata: string, recordedAt: string];

/** Rows this process committed last that live subscriptions read without a query (see SqliteEventStore.recent). */
const RECENT_ROWS = 1024;

const recordedOf = (row: RawEventRow): RecordedEvent => {
  const [position, id, streamId, revision, type, data, metadata, recordedAt] = row;
  return { id, streamId, revision: BigInt(revision), position: BigInt(position), type, data: JSON.parse(data), metadata: JSON.parse(metadata), recordedAt };
};

const fromRaw = (rows: RawEventRow[]): RecordedEvent[] => {
  const events: RecordedEvent[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) events[i] = recordedOf(rows[i]);
  return events;
};

const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  streamId: row.stream_id,
  revision: BigInt(row.revision),
  position: BigInt(row.position),
  type: row.type,
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata),
  recordedAt: row.recorded_at,
});

/**
 * The embedded event store: one SQLite table in WAL mode. The row id is the global position, so
 * the global log is the table in primary-key order. Appends from this process wake subscriptions
 * at once; appends from other processes sharing the file (the CLI) are seen by polling.
 *
 * The position is a plain INTEGER PRIMARY KEY (max + 1), not AUTOINCREMENT: events are never
 * deleted, so positions still only grow, and each commit writes one page less (sqlite_sequence).
 * Databases created with AUTOINCREMENT keep it; both behave the same.
 *
 * Appends check the expected revision inside the INSERT itself, relying on the stream's revisions
 * being contiguous from 0 (the UNIQUE (stream_id, revision) index keeps them so): a stream is at
 * revision r exactly when row r exists and row r + 1 does not. So `no_stream` inserts revision 0
 * (the unique index refuses it if the stream exists), and an exact revision r inserts r + 1 only
 * `WHERE EXISTS` row r (the unique index refuses it if the stream moved on): no separate read of
 * the stream's revision. Only a refused append reads the stream again, to tell a retried append
 * (same event ids: answered as the original was) from a conflict.
 *
 * Group commit: appends are queued and written on the next turn of the event loop, all those
 * queued by then in one immediate transaction (each append that writes more than one row in a
 * savepoint of its own), and each caller is answered once that transaction has committed. A
 * commit (its WAL frames, locks and system calls) cost about as much as the rest of a send's
 * append, and concurrent requests' appends arrive in the same turn (issue #23). An append that is
 * refused rolls back only itself; a transaction that fails as a whole (BEGIN, COMMIT, or an error
 * after which SQLite rolled the transaction back) fails every append of the group, none of which
 * was written. Nothing is acknowledged before its commit, and each commit is as durable as before.
 */
export class SqliteEventStore implements EventStorePort {
  private readonly appended = new EventEmitter();
  private readonly statements;
  /** The appends of one group commit, in order, each with what it came to. */
  private readonly groupTransaction: Database.Transaction<(group: QueuedWrite[]) => void>;
  /** The id sequences on this connection (useIdSequences), counted per group commit. */
  private idSequences: IdSequences | undefined;
  /** A write of several statements inside the group's transaction: a savepoint of its own. */
  private readonly savepoint: Database.Transaction<(write: (written: RawEventRow[]) => unknown, written: RawEventRow[]) => unknown>;
  /** Appends waiting for the next group commit. */
  private queue: QueuedWrite[] = [];
  private flushScheduled = false;
  private closed = false;
  /**
   * The rows of this process's last commits, as stored, at contiguous positions (a gap, left by
   * another process's append, starts the list anew). A live subscription reads the events after
   * its position from here when they are all here, instead of querying the rows it was just woken
   * for (three subscriptions read every send; issue #23). Anything not here is read from the table.
   */
  private recent: RawEventRow[] = [];
  /**
   * The events of this process's last group commit (from position `first`), parsed once by the
   * first subscription that reads them and shared by the others (three read every send: parsing
   * each row's JSON once per subscription cost about 3 % of a send; issue #23). Only the last
   * group's: kept longer, the parsed events would outlive the young generation and cost more in
   * garbage collection than the parsing saved. Shared, so never changed in place: no subscriber
   * does (with freezeDelivered they are frozen, which the test suites turn on, so a subscriber
   * that changed one fails there).
   */
  private lastGroup: { first: number; events: (RecordedEvent | undefined)[] } = { first: 0, events: [] };

  /**
   * EventStorePort.appendWithNextId: offered once the id sequences on this store's connection are
   * given (useIdSequences), absent otherwise.
   */
  appendWithNextId?: (sequence: string, build: (id: number) => NewStreamAppend) => Promise<AppendResult & { id: number }>;

  constructor(
    readonly db: Database.Database,
    private readonly options: {
      pollIntervalMs: number;
      now: () => Date;
      /**
       * Commits of other processes sharing the file (API processes beside a worker, the CLI):
       * subscriptions wake on them at once instead of at the next poll.
       */
      changes?: { onChange(listener: () => void): () => void };
      /**
       * Deep-freezes the events live subscriptions share (see recentEvents), so that a subscriber
       * changing one throws instead of corrupting what the others read. For tests: it costs a
       * few microseconds per event.
       */
      freezeDelivered?: boolean;
    } = { pollIntervalMs: 100, now: () => new Date() },
  ) {
    this.appended.setMaxListeners(0);
    db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position    INTEGER PRIMARY KEY,
        event_id    TEXT    NOT NULL UNIQUE,
        stream_id   TEXT    NOT NULL,
        revision    INTEGER NOT NULL,
        type        TEXT    NOT NULL,
        data        TEXT    NOT NULL,
        metadata    TEXT    NOT NULL,
        recorded_at TEXT    NOT NULL,
        UNIQUE (stream_id, revision)
      );
    `);
    this.statements = {
      streamRevision: db.prepare<[string], { revision: number | null }>('SELECT max(revision) AS revision FROM events WHERE stream_id = ?'),
      insert: db.prepare(
        'INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      /** Inserts revision r + 1 only if the stream holds revision r (parameters: the row, then stream_id and r). */
      insertAfter: db.prepare(
        `INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at)
         SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM events WHERE stream_id = ? AND revision = ?)`,
      ),
      byEventId: db.prepare<[string], EventRow>('SELECT * FROM events WHERE event_id = ?'),
      readStream: db.prepare<[string, number, number], EventRow>(
        'SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      ),
      // Rows as arrays (columns in RawEventRow order): no intermediate object per row on the replay's hot path.
      readAll: db
        .prepare<[number, number], RawEventRow>(
          'SELECT position, event_id, stream_id, revision, type, data, metadata, recorded_at FROM events WHERE position > ? ORDER BY position LIMIT ?',
        )
        .raw(true),
      readBackwards: db
        .prepare<[number, number], RawEventRow>(
          'SELECT position, event_id, stream_id, revision, type, data, metadata, recorded_at FROM events WHERE position < ? ORDER BY position DESC LIMIT ?',
        )
        .raw(true),
      head: db.prepare<[], { position: number | null }>('SELECT max(position) AS position FROM events'),
      count: db.prepare<[number, number], { n: number }>('SELECT count(*) AS n FROM events WHERE position > ? AND position <= ?'),
      ping: db.prepare('SELECT 1'),
    };
    this.savepoint = db.transaction((write: (written: RawEventRow[]) => unknown, written: RawEventRow[]) => write(written));
    this.groupTransaction = db.transaction((group: QueuedWrite[]) => {
      const ids = this.idSequences;
      ids?.beginGroup();
      try {
        for (const queued of group) {
          try {
            queued.outcome = { value: queued.statements > 1 ? this.savepoint(queued.write, queued.written) : queued.write(queued.written) };
          } catch (error) {
            queued.written = [];
            // Some errors (disk full, I/O) make SQLite roll the whole transaction back: then none
            // of the group was written, and the group fails as one.
            if (!this.db.inTransaction) throw error;
            queued.outcome = { error };
          }
        }
        // The ids the group took, written once, inside its transaction.
        ids?.endGroup();
      } finally {
        ids?.abandonGroup();
      }
    });
  }

  /**
   * Queues `write` for the next group commit; resolves once it is committed (or refused). Its
   * outcome is what `write` returned, or the error it threw (its own writes rolled back).
   */
  private enqueue(write: (written: RawEventRow[]) => unknown, statements: number): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      this.queue.push({ write, written: [], statements, outcome: undefined, done: resolve });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Writes the queued appends in one transaction, then answers each. */
  private flush(): void {
    this.flushScheduled = false;
    const group = this.queue;
    if (group.length === 0) return;
    this.queue = [];
    try {
      this.groupTransaction.immediate(group);
    } catch (error) {
      for (const queued of group) queued.done({ error });
      return;
    }
    let committed = 0;
    for (const queued of group) {
      if (queued.outcome!.error !== undefined) continue;
      this.remember(queued.written);
      committed += queued.written.length;
    }
    // The rows just committed end `recent` (which holds fewer of them if it started anew at a gap among them).
    committed = Math.min(committed, this.recent.length);
    this.lastGroup = committed === 0 ? { first: 0, events: [] } : { first: this.recent[this.recent.length - committed][0], events: new Array(committed) };
    if (group.some((queued) => queued.outcome!.error === undefined && queued.outcome!.value !== undefined)) this.appended.emit('appended');
    for (const queued of group) queued.done(queued.outcome!);
  }

  /** Adds committed rows to `recent`, which starts anew at a gap and keeps about RECENT_ROWS of them. */
  private remember(rows: RawEventRow[]): void {
    for (const row of rows) {
      const recent = this.recent;
      if (recent.length > 0 && row[0] !== recent[recent.length - 1][0] + 1) this.recent = [];
      this.recent.push(row);
    }
    if (this.recent.length > 2 * RECENT_ROWS) this.recent = this.recent.slice(-RECENT_ROWS);
  }

  /** The position of this process's last commit in `recent` (undefined when it holds none). */
  private recentEnd(): GlobalPosition | undefined {
    const recent = this.recent;
    return recent.length === 0 ? undefined : BigInt(recent[recent.length - 1][0]);
  }

  /**
   * The events after `after` (up to `maxCount`), when the first of them is among `recent`, which
   * then holds every event after it up to its own end (its positions are contiguous and committed).
   * Undefined otherwise: the caller reads the table.
   */
  private recentAfter(after: GlobalPosition | undefined, maxCount: number): RecordedEvent[] | undefined {
    const recent = this.recent;
    if (recent.length === 0) return undefined;
    const index = Number(after ?? 0n) + 1 - recent[0][0];
    if (index < 0 || index >= recent.length) return undefined;
    const { first, events: shared } = this.lastGroup;
    const end = Math.min(recent.length, index + maxCount);
    const events: RecordedEvent[] = new Array(end - index);
    for (let i = index; i < end; i++) {
      const row = recent[i];
      const k = row[0] - first;
      if (k < 0 || k >= shared.length) {
        events[i - index] = recordedOf(row);
        continue;
      }
      let event = shared[k];
      if (event === undefined) {
        event = recordedOf(row);
        if (this.options.freezeDelivered) deepFreeze(event);
        shared[k] = event;
      }
      events[i - index] = event;
    }
    return events;
  }

  /**
   * Writes the events at the revisions the expected revision implies; returns undefined when the
   * stream is not at that revision (nothing written) and throws the driver's error when a unique
   * index refuses a row (the stream moved on, or an event id is already stored). Either way the
   * caller's transaction, if any, is rolled back and `refused` sorts it out.
   */
  private write(streamId: string, events: EventToAppend[], expected: ExpectedRevision, written: RawEventRow[]): AppendResult | undefined {
    const recordedAt = this.options.now().toISOString();
    let revision: number;
    if (expected === 'no_stream') revision = 0;
    else if (expected === 'any') revision = (this.statements.streamRevision.get(streamId)?.revision ?? -1) + 1;
    else revision = Number(expected) + 1;
    const first = events[0];
    const firstRow = [first.id, streamId, revision, first.type, JSON.stringify(first.data), JSON.stringify(first.metadata), recordedAt] as const;
    const info =
      typeof expected === 'bigint'
        ? this.statements.insertAfter.run(...firstRow, streamId, revision - 1)
        : this.statements.insert.run(...firstRow);
    if (info.changes === 0) return undefined;
    let position = Number(info.lastInsertRowid);
    written.push([position, ...firstRow]);
    for (let i = 1; i < events.length; i++) {
      const event = events[i];
      revision += 1;
      const row = [event.id, streamId, revision, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata), recordedAt] as const;
      position = Number(this.statements.insert.run(...row).lastInsertRowid);
      written.push([position, ...row]);
    }
    return { nextExpectedRevision: BigInt(revision), position: BigInt(position) };
  }


  /**
   * Takes ids from `ids` (the id allocator's sequences, on this store's own connection) inside the
   * append's transaction: a send's id and its message are then one write transaction and one
   * commit instead of two (issue #23). The id is taken only if the append lands.
   */
  useIdSequences(ids: IdSequences): void {
    if (ids.db !== this.db) throw new Error('the id sequences must live on the event store\'s own connection');
    this.idSequences = ids;
    this.appendWithNextId = async (sequence, build) => {
      let built: NewStreamAppend | undefined;
      const { value, error } = await this.enqueue((written) => {
        // Counted in the group (SqliteIdAllocator.beginGroup); a refused append gives its id back.
        const id = ids.takeInGroup(sequence);
        try {
          const append = build(id);
          built = append;
          if (append.events.length === 0) throw new Error('appendWithNextId needs at least one event');
          // no_stream: the unique (stream_id, revision) index refuses a stream that exists. One
          // event is one INSERT, which a refusal leaves unwritten; several need a savepoint.
          const write = (rows: RawEventRow[]) => this.write(append.streamId, append.events, 'no_stream', rows)!;
          return { id, ...(append.events.length === 1 ? write(written) : (this.savepoint(write, written) as AppendResult)) };
        } catch (error) {
          ids.giveBackInGroup(sequence, id);
          throw error;
        }
      }, 1);
      if (error === undefined) return value as AppendResult & { id: number };
      // A stream that exists is a conflict, as appendToStream says.
      if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE' || !built || !/events\.stream_id/.test((error as Error).message)) throw error;
      const current = this.statements.streamRevision.get(built.streamId)?.revision ?? null;
      throw new StreamRevisionConflictError(built.streamId, 'no_stream', current === null ? 'no_stream' : BigInt(current));
    };
  }

  /**
   * An append that wrote nothing: a retry of an append that already landed (the same event ids
   * in this stream) is answered as the original was; otherwise it is a conflict, or the driver's
   * error when an event id is stored in no way that explains it.
   */
  private refused(streamId: string, events: EventToAppend[], expected: ExpectedRevision, error?: unknown): AppendResult {
    const repeat = this.idempotentRepeat(streamId, events);
    if (repeat) return repeat;
    if (error !== undefined && !/events\.stream_id/.test((error as Error).message)) throw error;
    const current = this.statements.streamRevision.get(streamId)?.revision ?? null;
    throw new StreamRevisionConflictError(streamId, expected, current === null ? 'no_stream' : BigInt(current));
  }

  /** The same event ids already stored in this stream: a retried append, answered as the original was. */
  private idempotentRepeat(streamId: string, events: EventToAppend[]): AppendResult | undefined {
    const first = this.statements.byEventId.get(events[0].id);
    if (!first) return undefined;
    const last = this.statements.byEventId.get(events[events.length - 1].id);
    if (first.stream_id !== streamId || !last || last.stream_id !== streamId) {
      throw new StreamRevisionConflictError(streamId, 'any', 'no_stream');
    }
    return { nextExpectedRevision: BigInt(last.revision), position: BigInt(last.position) };
  }

  async appendToStream(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    const expected = options.expectedRevision;
    // One event is one INSERT (`any` reads the revision first), atomic on its own; more need a savepoint.
    const { value, error } = await this.enqueue((written) => this.write(streamId, events, expected, written), events.length);
    if (error !== undefined) {
      if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
      return this.refused(streamId, events, expected, error);
    }
    if (value === undefined) return this.refused(streamId, events, expected);
    return value as AppendResult;
  }

  async readStream(streamId: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<ReadStreamResult> {
    const toEnd = options.maxCount === undefined || options.maxCount < 0;
    const rows = this.statements.readStream.all(streamId, Number(options.fromRevision ?? 0n), options.maxCount ?? -1);
    // Revisions are contiguous from 0: a read to the end that found rows ends at the stream's
    // revision (a command reading on from its snapshot needs no second query); otherwise ask.
    const current =
      toEnd && rows.length > 0
        ? rows[rows.length - 1].revision
        : toEnd && (options.fromRevision ?? 0n) === 0n
          ? null
          : (this.statements.streamRevision.get(streamId)?.revision ?? null);
    return { events: rows.map(toRecorded), revision: current === null ? 'no_stream' : BigInt(current) };
  }

  async readAll(options: { after?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]> {
    return fromRaw(this.statements.readAll.all(Number(options.after ?? 0n), options.maxCount));
  }

  async readAllBackwards(options: { before?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]> {
    return fromRaw(this.statements.readBackwards.all(options.before === undefined ? Number.MAX_SAFE_INTEGER : Number(options.before), options.maxCount));
  }

  async countEvents(options: { after?: GlobalPosition; upTo: GlobalPosition }): Promise<number> {
    return this.statements.count.get(Number(options.after ?? 0n), Number(options.upTo))!.n;
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    const head = this.statements.head.get()?.position ?? null;
    return head === null ? undefined : BigInt(head);
  }

  subscribeToAll(options: { after?: GlobalPosition; batchSize?: number }, handler: AllSubscriptionHandler): AllSubscription {
    let after = options.after;
    let active = true;
    let wake: (() => void) | undefined;
    let wakeScheduled = false;
    // A sleeping subscription wakes on the next turn of the event loop rather than at once: the
    // appends of the other requests handled in this turn land first and are read (and projected)
    // as one batch, instead of one batch each.
    const onAppend = () => {
      if (!wake || wakeScheduled) return;
      wakeScheduled = true;
      setImmediate(() => {
        wakeScheduled = false;
        wake?.();
      });
    };
    // Another process committed (seen by `changes`): its events are only in the table.
    let foreignCommit = false;
    const onForeignCommit = () => {
      foreignCommit = true;
      onAppend();
    };
    this.appended.on('appended', onAppend);
    const stopWatching = this.options.changes?.onChange(onForeignCommit);
    const sleep = () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.options.pollIntervalMs);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    const loop = async () => {
      try {
        while (active && !this.closed) {
          const maxCount = options.batchSize ?? 1000;
          let batch = this.recentAfter(after, maxCount);
          const fromMemory = batch !== undefined;
          if (!batch) {
            foreignCommit = false;
            batch = await this.readAll({ after, maxCount });
          }
          if (batch.length === 0) {
            await sleep();
            continue;
          }
          await handler(batch);
          after = batch[batch.length - 1].position;
          // Delivered up to this process's last commit, and no other process committed since (as
          // far as `changes` tells): nothing to read until a wake, so no query to find nothing.
          // Without `changes`, the poll's wake reads the table as before.
          if (fromMemory && !foreignCommit && this.options.changes && this.recentEnd() === after) await sleep();
        }
      } finally {
        this.appended.off('appended', onAppend);
        stopWatching?.();
      }
    };
    const done = loop();
    return {
      done,
      close: async () => {
        active = false;
        wake?.();
        await done.catch(() => undefined);
      },
    };
  }

  async health() {
    try {
      this.statements.ping.get();
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    // Appends already queued are written (the connection is closed after this store).
    this.flush();
    this.closed = true;
    this.appended.emit('appended');
  }
}
