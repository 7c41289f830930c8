/**
 * Embedded event store throughput: single-event appends through the EventStorePort (as command
 * handlers do: a new stream at `no_stream`, an existing one at its exact revision), the same rows
 * inserted with raw better-sqlite3 (one transaction each) for comparison, then reads (readStream
 * of every stream, readAll pages).
 *
 *   node dist/bench/append-throughput.js [--count 50000] [--new-stream-ratio 0.2]
 *        [--synchronous normal|full] [--full-count 2000] [--json FILE]
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventToAppend, ExpectedRevision } from '@app/application';
import { openSqlite, type SqliteSynchronous } from '@app/infrastructure/embedded/sqlite';
import { SqliteEventStore } from '@app/infrastructure/embedded/sqlite-event-store';
import { EventFactory, rng, toAppend } from './events';
import {
  type BenchResult,
  commandLine,
  emitResult,
  fmtInt,
  fmtNum,
  intArg,
  now,
  parseArgs,
  percentile,
  printRows,
  progress,
  type ResultRow,
  runMain,
  Samples,
  stringArg,
  tempDir,
} from './support';

type Op = { streamId: string; expected: ExpectedRevision; event: EventToAppend };

/** The workload: each append goes to a new stream or to a random existing stream at its revision. */
function generateOps(count: number, newStreamRatio: number, seed = 42): { ops: Op[]; streams: string[] } {
  const random = rng(seed);
  const events = new EventFactory(random);
  const revisions = new Map<string, bigint>();
  const streams: string[] = [];
  const ops: Op[] = [];
  for (let i = 0; i < count; i++) {
    if (streams.length === 0 || random() < newStreamRatio) {
      const userId = streams.length + 1;
      const streamId = `bench_user-${userId}`;
      streams.push(streamId);
      revisions.set(streamId, 0n);
      ops.push({ streamId, expected: 'no_stream', event: toAppend(events.userCreated(1 + (userId % 5), userId)) });
    } else {
      const index = Math.floor(random() * streams.length);
      const streamId = streams[index];
      const revision = revisions.get(streamId)!;
      revisions.set(streamId, revision + 1n);
      ops.push({ streamId, expected: revision, event: toAppend(events.userChanged(1 + ((index + 1) % 5), index + 1)) });
    }
  }
  return { ops, streams };
}

const shuffle = <T>(items: T[], random: () => number): T[] => {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
};

/** Appends every op through the port, one event per append; returns elapsed ms and latencies. */
async function appendThroughPort(store: SqliteEventStore, ops: Op[], label: string, maxMs = Infinity) {
  const latencies = new Samples();
  const start = now();
  let done = 0;
  let nextReport = start + 2000;
  for (const op of ops) {
    const t = now();
    const result = await store.appendToStream(op.streamId, [op.event], { expectedRevision: op.expected });
    latencies.push(now() - t);
    const expectedNext = op.expected === 'no_stream' ? 0n : (op.expected as bigint) + 1n;
    if (result.nextExpectedRevision !== expectedNext) throw new Error(`${op.streamId}: unexpected revision ${result.nextExpectedRevision}`);
    done++;
    if (t > nextReport) {
      progress(`${label}: ${fmtInt(done)} / ${fmtInt(ops.length)} appends`);
      nextReport = t + 2000;
    }
    if (t - start > maxMs) break;
  }
  return { ms: now() - start, done, latencies: latencies.sorted() };
}

const latencyDetail = (sorted: Float64Array) =>
  `p50 ${fmtNum(percentile(sorted, 50) * 1000, 0)} µs, p99 ${fmtNum(percentile(sorted, 99) * 1000, 0)} µs`;

async function main() {
  const args = parseArgs();
  const count = intArg(args, 'count', 50_000);
  const newStreamRatio = Number(stringArg(args, 'new-stream-ratio', '0.2'));
  const synchronous = stringArg<SqliteSynchronous>(args, 'synchronous', 'normal', ['normal', 'full']);
  const fullCount = intArg(args, 'full-count', 2_000);
  const began = now();
  const dir = tempDir('append');
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  try {
    progress(`generating ${fmtInt(count)} single-event appends (${Math.round(newStreamRatio * 100)}% to new streams)`);
    const { ops, streams } = generateOps(count, newStreamRatio);
    const avgBytes = Math.round(ops.reduce((n, op) => n + JSON.stringify(op.event.data).length, 0) / ops.length);
    notes.push(
      `${fmtInt(count)} appends over ${fmtInt(streams.length)} streams; event data averages ${avgBytes} bytes of JSON; ` +
        `database files under ${tmpdir()}; SQLITE_SYNCHRONOUS=${synchronous}.`,
      'Raw: one BEGIN IMMEDIATE / INSERT / COMMIT per row, no revision check. The port appends one event as a single ' +
        'autocommitted INSERT that checks the expected revision itself (INSERT ... SELECT ... WHERE EXISTS revision r, ' +
        'and the UNIQUE (stream_id, revision) index), so it can beat raw; both use the event store\'s schema.',
    );

    // 1. Appends through the port.
    const db = openSqlite(join(dir.path, 'events.sqlite'), synchronous);
    const store = new SqliteEventStore(db);
    progress(`port: appending (synchronous=${synchronous})`);
    const port = await appendThroughPort(store, ops, 'port');
    const portRate = (port.done / port.ms) * 1000;
    rows.push({
      metric: `port appendToStream, 1 event, expected revision (sync=${synchronous})`,
      value: portRate,
      unit: 'appends/s',
      detail: latencyDetail(port.latencies),
    });
    progress(`port: ${fmtInt(portRate)} appends/s`);

    // 2. Raw better-sqlite3, same schema, one transaction per row, no revision check.
    const rawDb = openSqlite(join(dir.path, 'raw.sqlite'), synchronous);
    new SqliteEventStore(rawDb); // creates the same schema
    const insert = rawDb.prepare(
      'INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertOne = rawDb.transaction((op: Op, revision: number) =>
      insert.run(op.event.id, op.streamId, revision, op.event.type, JSON.stringify(op.event.data), JSON.stringify(op.event.metadata), new Date().toISOString()),
    );
    progress('raw better-sqlite3: inserting');
    const rawLatencies = new Samples();
    const rawStart = now();
    for (const op of ops) {
      const t = now();
      insertOne.immediate(op, op.expected === 'no_stream' ? 0 : Number(op.expected) + 1);
      rawLatencies.push(now() - t);
    }
    const rawMs = now() - rawStart;
    const rawRate = (ops.length / rawMs) * 1000;
    const rawSorted = rawLatencies.sorted();
    rows.push({
      metric: `raw better-sqlite3 INSERT, 1 row per transaction (sync=${synchronous})`,
      value: rawRate,
      unit: 'inserts/s',
      detail: `${latencyDetail(rawSorted)}; port reaches ${Math.round((portRate / rawRate) * 100)}% of raw`,
    });
    progress(`raw: ${fmtInt(rawRate)} inserts/s`);
    rawDb.close();

    // 3. Reads through the port.
    progress(`port: readStream of ${fmtInt(streams.length)} streams`);
    const order = shuffle(streams, rng(7));
    let streamEvents = 0;
    const readStreamStart = now();
    for (const streamId of order) streamEvents += (await store.readStream(streamId)).events.length;
    const readStreamMs = now() - readStreamStart;
    if (streamEvents !== count) throw new Error(`readStream returned ${streamEvents} events, expected ${count}`);
    rows.push({
      metric: 'port readStream, whole stream, random order',
      value: (streamEvents / readStreamMs) * 1000,
      unit: 'events/s',
      detail: `${fmtInt((streams.length / readStreamMs) * 1000)} streams/s, ${fmtNum(count / streams.length, 1)} events per stream`,
    });

    for (const pageSize of [1000, 100]) {
      progress(`port: readAll in pages of ${pageSize}`);
      let read = 0;
      let after: bigint | undefined;
      const start = now();
      for (;;) {
        const page = await store.readAll({ after, maxCount: pageSize });
        if (page.length === 0) break;
        read += page.length;
        after = page[page.length - 1].position;
      }
      const ms = now() - start;
      if (read !== count) throw new Error(`readAll returned ${read} events, expected ${count}`);
      rows.push({ metric: `port readAll, pages of ${pageSize}`, value: (read / ms) * 1000, unit: 'events/s' });
    }
    await store.close();
    db.close();

    // 4. A short run with synchronous=full (fsync per commit), for the durability trade-off.
    if (fullCount > 0 && synchronous !== 'full') {
      const fullDb = openSqlite(join(dir.path, 'full.sqlite'), 'full');
      const fullStore = new SqliteEventStore(fullDb);
      progress(`port: ${fmtInt(fullCount)} appends with synchronous=full (at most 15 s)`);
      const full = await appendThroughPort(fullStore, generateOps(fullCount, newStreamRatio, 99).ops, 'port (full)', 15_000);
      rows.push({
        metric: 'port appendToStream, 1 event (sync=full)',
        value: (full.done / full.ms) * 1000,
        unit: 'appends/s',
        detail: `${latencyDetail(full.latencies)}; ${fmtInt(full.done)} appends`,
      });
      await fullStore.close();
      fullDb.close();
    }
  } finally {
    dir.remove();
  }

  const result: BenchResult = {
    name: 'append-throughput',
    title: 'Embedded event store: appends and reads',
    command: commandLine(),
    params: { count, newStreamRatio, synchronous, fullCount },
    rows,
    notes,
    durationMs: now() - began,
  };
  printRows(result.title, rows);
  emitResult(args, result);
}

runMain(main);
