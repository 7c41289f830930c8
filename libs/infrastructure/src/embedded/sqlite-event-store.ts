import type Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
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
 */
export class SqliteEventStore implements EventStorePort {
  private readonly appended = new EventEmitter();
  private readonly statements;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly options: { pollIntervalMs: number; now: () => Date } = { pollIntervalMs: 100, now: () => new Date() },
  ) {
    this.appended.setMaxListeners(0);
    db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position    INTEGER PRIMARY KEY AUTOINCREMENT,
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
      byEventId: db.prepare<[string], EventRow>('SELECT * FROM events WHERE event_id = ?'),
      readStream: db.prepare<[string, number, number], EventRow>(
        'SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      ),
      readAll: db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
      head: db.prepare<[], { position: number | null }>('SELECT max(position) AS position FROM events'),
      ping: db.prepare('SELECT 1'),
    };
  }

  private readonly appendTransaction = (streamId: string, events: EventToAppend[], expected: ExpectedRevision): AppendResult => {
    const current = this.statements.streamRevision.get(streamId)?.revision ?? null;
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' && current === null) ||
      (typeof expected === 'bigint' && current !== null && expected === BigInt(current));
    if (!matches) {
      // A retry of an append that already landed finds the stream moved on by itself.
      const repeat = this.idempotentRepeat(streamId, events);
      if (repeat) return repeat;
      throw new StreamRevisionConflictError(streamId, expected, current === null ? 'no_stream' : BigInt(current));
    }
    const recordedAt = this.options.now().toISOString();
    let revision = current ?? -1;
    let position = 0n;
    for (const event of events) {
      revision += 1;
      const info = this.statements.insert.run(
        event.id,
        streamId,
        revision,
        event.type,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
        recordedAt,
      );
      position = BigInt(info.lastInsertRowid);
    }
    return { nextExpectedRevision: BigInt(revision), position };
  };

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
    let result: AppendResult;
    try {
      result = this.db.transaction(this.appendTransaction).immediate(streamId, events, options.expectedRevision);
    } catch (error) {
      // An event id that is already stored (a retry with expected revision "any"): the transaction
      // rolled back; answer as the original append was answered, or as a conflict.
      if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
      const repeat = this.idempotentRepeat(streamId, events);
      if (!repeat) throw error;
      return repeat;
    }
    this.appended.emit('appended');
    return result;
  }

  async readStream(streamId: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<ReadStreamResult> {
    const rows = this.statements.readStream.all(streamId, Number(options.fromRevision ?? 0n), options.maxCount ?? -1);
    const current = this.statements.streamRevision.get(streamId)?.revision ?? null;
    return { events: rows.map(toRecorded), revision: current === null ? 'no_stream' : BigInt(current) };
  }

  async readAll(options: { after?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]> {
    return this.statements.readAll.all(Number(options.after ?? 0n), options.maxCount).map(toRecorded);
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    const head = this.statements.head.get()?.position ?? null;
    return head === null ? undefined : BigInt(head);
  }

  subscribeToAll(options: { after?: GlobalPosition; batchSize?: number }, handler: AllSubscriptionHandler): AllSubscription {
    let after = options.after;
    let active = true;
    let wake: (() => void) | undefined;
    const onAppend = () => wake?.();
    this.appended.on('appended', onAppend);
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
          const batch = await this.readAll({ after, maxCount: options.batchSize ?? 1000 });
          if (batch.length === 0) {
            await sleep();
            continue;
          }
          await handler(batch);
          after = batch[batch.length - 1].position;
        }
      } finally {
        this.appended.off('appended', onAppend);
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
    this.closed = true;
    this.appended.emit('appended');
  }
}
