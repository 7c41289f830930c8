/**
 * Acceptance test: the embedded store survives processes killed with SIGKILL at arbitrary moments.
 *
 * 1. Appending workers (two at a time, sharing streams) are killed after some hundreds of
 *    acknowledged appends, for several rounds. Reopened, the log holds every acknowledged event
 *    exactly once, at the acknowledged stream, revision and position, and every stream's revisions
 *    are contiguous.
 * 2. A projecting worker is killed mid-replay (once while another worker is still appending), then
 *    the projection is restarted in process. Its read model equals a replay of the whole log from
 *    zero into a fresh read store, and equals the pure in-memory replay: nothing applied twice,
 *    nothing skipped, nothing reordered.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '@app/application';
import { openSqlite } from '@app/infrastructure/embedded/sqlite';
import { SqliteEventStore } from '@app/infrastructure/embedded/sqlite-event-store';
import { SqliteReadStore } from '@app/infrastructure/embedded/sqlite-read-store';
import { Projector } from '@app/projections/shared/projector';
import { makeTempDir, readWholeLog, replay } from '@app/testing';
import { CRASH_PROJECTIONS, streamTallyProjection, type StreamTallyDoc } from './crash-projections';
import type { AppendAck, CommitAck } from './crash-worker';

jest.setTimeout(240_000);

const ROOT = resolve(__dirname, '..', '..');
const REGISTER = join(__dirname, 'register-swc.js');
const WORKER = join(__dirname, 'crash-worker.ts');
const WORKER_TIMEOUT_MS = 60_000;

type Message = Record<string, unknown>;
type Worker = { messages: Message[]; kill(): void; go(): void; ready: Promise<void>; exited: Promise<void>; child: ChildProcess };

const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

/**
 * Spawns a worker; `onMessage` sees every complete JSON line (and may kill the worker). `exited`
 * resolves once the worker died of SIGKILL and its output is fully read; it rejects, with the
 * worker's stderr, if the worker ended any other way or outlived WORKER_TIMEOUT_MS.
 */
function startWorker(args: string[], onMessage: (message: Message, worker: Worker) => void): Worker {
  const child = spawn(process.execPath, ['--enable-source-maps', '-r', REGISTER, WORKER, ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  let pending = '';
  let stderr = '';
  let protocolError: Error | undefined;
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, WORKER_TIMEOUT_MS);
  const exited = new Promise<void>((resolvePromise, reject) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // A last line cut short by the kill is not an acknowledgement: it is ignored.
      if (protocolError) reject(protocolError);
      else if (timedOut) reject(new Error(`worker ${args.join(' ')} did not reach its kill point within ${WORKER_TIMEOUT_MS} ms:\n${stderr}`));
      else if (signal !== 'SIGKILL' || worker.messages.length === 0) reject(new Error(`worker ${args.join(' ')} ended with code ${code}, signal ${signal}:\n${stderr}`));
      else resolvePromise();
    }),
  );
  const go = () => {
    if (child.stdin!.writable) child.stdin!.write('go\n');
  };
  child.stdin!.on('error', () => undefined); // the worker may be dead already
  const worker: Worker = { messages: [], kill, go, ready, exited, child };
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    pending += chunk;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      try {
        const message = JSON.parse(line) as Message;
        worker.messages.push(message);
        if ('ready' in message) markReady();
        onMessage(message, worker);
      } catch (error) {
        protocolError ??= new Error(`bad line from worker: ${line} (${String(error)})`);
        kill();
      }
    }
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  return worker;
}

const isAppendAck = (m: Message): m is AppendAck & Message => typeof m.stream === 'string' && Array.isArray(m.ids);
const isCommitAck = (m: Message): m is CommitAck & Message => Array.isArray(m.committed);

/**
 * Appending workers started together (each waits for the others to be ready), each killed once it
 * has acknowledged its number of appends. Returns what each printed before dying.
 */
async function appendUntilKilled(dir: string, workers: { name: string; acks: number }[]): Promise<AppendAck[][]> {
  const started = workers.map(({ name, acks }) => {
    let count = 0;
    return startWorker(['append', dir, name, String(randomInt(1, 2 ** 31))], (message, w) => {
      if (isAppendAck(message) && ++count >= acks) w.kill();
    });
  });
  // A worker that fails before it is ready rejects `exited`; don't wait for its `ready` then.
  await Promise.race([Promise.all(started.map((w) => w.ready)), Promise.all(started.map((w) => w.exited))]);
  for (const worker of started) worker.go();
  await Promise.all(started.map((w) => w.exited));
  return started.map((w) => w.messages.filter(isAppendAck));
}

type Opened = { db: Database.Database; store: SqliteEventStore; close(): Promise<void> };
function openEvents(dir: string): Opened {
  const db = openSqlite(join(dir, 'events.sqlite'));
  const store = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
  return { db, store, close: async () => { await store.close(); db.close(); } };
}

/** Reopens the log after the kills and checks it against every acknowledgement. */
async function expectLogHoldsEveryAck(dir: string, acks: AppendAck[]): Promise<RecordedEvent[]> {
  const { db, store, close } = openEvents(dir);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const log = await readWholeLog(store);

    // The global log: strictly increasing positions, each event id once.
    const positions = log.map((e) => e.position);
    expect(positions.every((p, i) => i === 0 || p > positions[i - 1])).toBe(true);
    const byId = new Map(log.map((e) => [e.id, e]));
    expect(byId.size).toBe(log.length);

    // Every acknowledged event is there, once, where the acknowledgement said.
    const acknowledgedIds = acks.flatMap((a) => a.ids);
    expect(new Set(acknowledgedIds).size).toBe(acknowledgedIds.length);
    const problems: string[] = [];
    for (const ack of acks) {
      const last = BigInt(ack.lastRevision);
      ack.ids.forEach((id, index) => {
        const event = byId.get(id);
        const revision = last - BigInt(ack.ids.length - 1 - index);
        if (!event) problems.push(`${ack.stream}@${revision}: acknowledged event ${id} is missing`);
        else if (event.streamId !== ack.stream || event.revision !== revision) {
          problems.push(`${id}: acknowledged at ${ack.stream}@${revision}, stored at ${event.streamId}@${event.revision}`);
        }
      });
      const lastEvent = byId.get(ack.ids[ack.ids.length - 1]);
      if (lastEvent && lastEvent.position !== BigInt(ack.position)) {
        problems.push(`${lastEvent.id}: acknowledged at position ${ack.position}, stored at ${lastEvent.position}`);
      }
    }
    expect(problems).toEqual([]);

    // Every stream's revisions are 0, 1, 2, … in log order, and readStream agrees with the log.
    const streams = new Map<string, RecordedEvent[]>();
    for (const event of log) streams.set(event.streamId, [...(streams.get(event.streamId) ?? []), event]);
    for (const [streamId, events] of streams) {
      expect({ streamId, revisions: events.map((e) => Number(e.revision)) }).toEqual({ streamId, revisions: events.map((_, i) => i) });
      const read = await store.readStream(streamId);
      expect(read.revision).toBe(BigInt(events.length - 1));
      expect(read.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    }

    // The store is usable after the crash: an append at the current revision of a stream succeeds.
    const [someStream, someEvents] = [...streams.entries()][0];
    const probe = await store.appendToStream(
      someStream,
      [{ id: `00000000-0000-4000-8000-${String(log.length).padStart(12, '0')}`, type: 'CrashProbe', data: {}, metadata: { schemaVersion: 1 } }],
      { expectedRevision: BigInt(someEvents.length - 1) },
    );
    expect(probe.nextExpectedRevision).toBe(BigInt(someEvents.length));
    expect(probe.position).toBeGreaterThan(positions[positions.length - 1]);
    return [...log, ...(await store.readAll({ after: positions[positions.length - 1], maxCount: 10 }))];
  } finally {
    await close();
  }
}

/** Runs the crash projections over the whole log into the read store in `readDir`; returns every document. */
async function projectInProcess(eventsDir: string, readDir: string) {
  const events = openEvents(eventsDir);
  const readDb = openSqlite(join(readDir, 'read-models.sqlite'));
  const readStore = new SqliteReadStore(readDb);
  const errors: string[] = [];
  const projector = new Projector(events.store, readStore, CRASH_PROJECTIONS, { info: () => undefined, error: (_o, msg) => errors.push(msg) }, {
    waitTimeoutMs: 60_000,
    batchSize: 500,
  });
  try {
    await projector.start();
    await projector.catchUp(120_000);
    const head = await events.store.headPosition();
    const documents: Record<string, unknown[]> = {};
    for (const projection of CRASH_PROJECTIONS) {
      documents[projection.collection.name] = await readStore.find(projection.collection.name, { orderBy: [{ field: 'id', direction: 'asc' }] });
    }
    return { documents, checkpoints: await readStore.getCheckpoints(), head, errors };
  } finally {
    await projector.stop();
    await events.close();
    readDb.close();
  }
}

describe('crash recovery (embedded SQLite, SIGKILL)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let freshDir: ReturnType<typeof makeTempDir>;
  const acks: AppendAck[] = [];

  beforeAll(() => {
    dir = makeTempDir('crash-spec-');
    freshDir = makeTempDir('crash-spec-fresh-');
  });
  afterAll(() => {
    dir.remove();
    freshDir.remove();
  });

  it('keeps every acknowledged append, exactly once, across appending processes killed mid-write', async () => {
    for (let round = 1; round <= 3; round++) {
      // Two workers at once, appending to shared streams: conflicts, lock waits and kills interleave.
      const results = await appendUntilKilled(dir.path, [
        { name: `r${round}a`, acks: randomInt(200, 600) },
        { name: `r${round}b`, acks: randomInt(200, 600) },
      ]);
      for (const result of results) {
        expect(result.length).toBeGreaterThanOrEqual(200);
        acks.push(...result);
      }
      const log = await expectLogHoldsEveryAck(dir.path, acks);
      // Streams of earlier rounds were appended to at their exact revisions by later workers.
      if (round > 1) expect(acks.some((a) => a.stream.startsWith('crash-r1') && results.flat().includes(a))).toBe(true);
      expect(log.length).toBeGreaterThanOrEqual(acks.reduce((n, a) => n + a.ids.length, 0));
    }
  });

  it('a projection killed mid-replay and restarted ends equal to a replay from zero', async () => {
    const { store, close } = openEvents(dir.path);
    const headBefore = (await store.headPosition())!;
    await close();

    let sawMidReplay = false;
    for (let round = 1; round <= 3; round++) {
      const commitsBeforeKill = randomInt(2, 12);
      let commits = 0;
      let lastCommitted = 0n;
      const projector = startWorker(['project', dir.path, 'projector', '1', String(randomInt(7, 25))], (message, w) => {
        if (!isCommitAck(message)) return;
        for (const [, position] of message.committed) if (BigInt(position) > lastCommitted) lastCommitted = BigInt(position);
        if (++commits >= commitsBeforeKill) w.kill();
      });
      // In the second round, another process keeps appending while the projector runs and dies.
      const appending = round === 2 ? appendUntilKilled(dir.path, [{ name: `p${round}`, acks: randomInt(150, 400) }]) : Promise.resolve([]);
      await projector.exited;
      acks.push(...(await appending).flat());

      const readDb = openSqlite(join(dir.path, 'read-models.sqlite'));
      const stored = new SqliteReadStore(readDb);
      const checkpoints = await stored.getCheckpoints();
      readDb.close();
      const events = openEvents(dir.path);
      const head = (await events.store.headPosition())!;
      await events.close();
      // Every commit the worker reported survived the kill; none reaches past the log.
      for (const projection of CRASH_PROJECTIONS) {
        expect(checkpoints[projection.name]).toBeGreaterThanOrEqual(lastCommitted);
        expect(checkpoints[projection.name]).toBeLessThanOrEqual(head);
      }
      if (lastCommitted < headBefore) sawMidReplay = true;
    }
    expect(sawMidReplay).toBe(true);

    // The log is still whole after the projection rounds (and the concurrent appender's kill).
    const log = await expectLogHoldsEveryAck(dir.path, acks);

    // Restart in process: catch up from the checkpoints the killed workers left.
    const resumed = await projectInProcess(dir.path, dir.path);
    // Reference 1: a fresh read store, replayed from zero.
    const fromZero = await projectInProcess(dir.path, freshDir.path);

    expect(resumed.errors).toEqual([]);
    expect(fromZero.errors).toEqual([]);
    for (const projection of CRASH_PROJECTIONS) {
      expect(resumed.checkpoints[projection.name]).toBe(resumed.head);
    }
    expect(resumed.documents).toEqual(fromZero.documents);

    // Reference 2: the pure in-memory replay of the same log.
    for (const projection of CRASH_PROJECTIONS) {
      const expected = [...replay(projection, log).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, doc]) => doc);
      expect({ [projection.name]: resumed.documents[projection.collection.name] }).toEqual({ [projection.name]: expected });
    }

    // No double-apply, no skip: each stream's tally equals the stream's length, in revision order.
    const lengths = new Map<string, number>();
    for (const event of log) lengths.set(event.streamId, (lengths.get(event.streamId) ?? 0) + 1);
    const tallies = resumed.documents[streamTallyProjection.collection.name] as StreamTallyDoc[];
    expect(tallies).toHaveLength(lengths.size);
    for (const tally of tallies) {
      expect({ stream: tally.stream, count: tally.count, out_of_order: tally.out_of_order }).toEqual({
        stream: tally.stream,
        count: lengths.get(tally.stream),
        out_of_order: 0,
      });
    }
    const workerEvents = log.filter((e) => e.type === 'CrashEvent');
    expect(resumed.documents.crash_log_digest).toEqual([expect.objectContaining({ count: workerEvents.length })]);
    expect(workerEvents.length).toBeGreaterThanOrEqual(acks.reduce((n, a) => n + a.ids.length, 0));
  });
});
