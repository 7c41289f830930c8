/**
 * A child process for the crash suite, killed with SIGKILL at an arbitrary moment. Run with
 *   node -r ./test/crash/register-swc.js test/crash/crash-worker.ts <mode> <dataDir> <name> <seed> [batchSize]
 *
 * append:  prints {ready}, waits for a line on stdin, then
 *          appends to the embedded event store in a loop, to new streams (expected revision
 *          no_stream) and to streams already in the log (at their exact revision), and prints one
 *          JSON line per acknowledged append, written only after appendToStream has resolved.
 * project: runs the Projector over the log with the crash projections, and prints one JSON line
 *          after every read-store commit has returned.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { type ExpectedRevision, type ReadStorePort, StreamRevisionConflictError } from '@app/application';
import { openSqlite } from '@app/infrastructure/embedded/sqlite';
import { SqliteEventStore } from '@app/infrastructure/embedded/sqlite-event-store';
import { SqliteReadStore } from '@app/infrastructure/embedded/sqlite-read-store';
import { Projector } from '@app/projections/shared/projector';
import { seededRandom } from '@app/testing/seeded-random';
import { CRASH_PROJECTIONS } from './crash-projections';

export type AppendAck = { stream: string; ids: string[]; lastRevision: string; position: string };
export type CommitAck = { committed: [string, string][] };

/** Synchronous, so that a line the parent receives was printed after the fact it reports. */
const emit = (message: object) => writeSync(1, `${JSON.stringify(message)}\n`);


/** Waits for a line on stdin (the parent starts concurrent workers together), or for stdin to close. */
function startSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => chunk.includes('\n') && resolve());
    process.stdin.on('end', () => resolve());
  });
}

async function appendForever(dir: string, name: string, seed: number): Promise<never> {
  const store = new SqliteEventStore(openSqlite(join(dir, 'events.sqlite')), { pollIntervalMs: 1000, now: () => new Date() });
  // Seeded, so that a worker's choices can be replayed.
  const random = seededRandom(seed);

  // The streams earlier workers left in the log, at their current revisions.
  const revisions = new Map<string, bigint>();
  for (let after: bigint | undefined; ; ) {
    const page = await store.readAll({ after, maxCount: 5000 });
    if (page.length === 0) break;
    for (const event of page) revisions.set(event.streamId, event.revision);
    after = page[page.length - 1].position;
  }
  const known = [...revisions.keys()];
  emit({ ready: name, knownStreams: known.length });
  await startSignal();

  for (let seq = 0; ; seq++) {
    // A new stream of this worker, one of a few hot streams every worker appends to (so that
    // concurrent workers conflict), or any stream already in the log, at the revision last seen.
    const dice = random();
    const stream =
      dice < 0.2 || known.length === 0 ? `crash-${name}-${seq}` : dice < 0.6 ? `crash-hot-${Math.floor(random() * 4)}` : known[Math.floor(random() * known.length)];
    const current = revisions.get(stream);
    const expectedRevision: ExpectedRevision = current === undefined ? 'no_stream' : current;
    const events = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, index) => ({
      id: randomUUID(),
      type: 'CrashEvent',
      data: { worker: name, seq, index },
      metadata: { schemaVersion: 1 },
    }));
    try {
      const { nextExpectedRevision, position } = await store.appendToStream(stream, events, { expectedRevision });
      if (current === undefined) known.push(stream);
      revisions.set(stream, nextExpectedRevision);
      const ack: AppendAck = { stream, ids: events.map((e) => e.id), lastRevision: nextExpectedRevision.toString(), position: position.toString() };
      emit(ack);
    } catch (error) {
      if (!(error instanceof StreamRevisionConflictError)) throw error;
      // Another worker appended to this stream first: learn its revision and go on.
      const { revision } = await store.readStream(stream);
      if (revision !== 'no_stream') {
        if (!revisions.has(stream)) known.push(stream);
        revisions.set(stream, revision);
      }
      emit({ conflict: stream });
    }
  }
}

async function projectForever(dir: string, batchSize: number): Promise<void> {
  const events = new SqliteEventStore(openSqlite(join(dir, 'events.sqlite')), { pollIntervalMs: 20, now: () => new Date() });
  const inner = new SqliteReadStore(openSqlite(join(dir, 'read-models.sqlite')));
  // The same store, reporting each commit once it has returned (i.e. once it is durable).
  const readStore: ReadStorePort = Object.create(inner);
  readStore.commit = async (batch) => {
    await inner.commit(batch);
    const ack: CommitAck = { committed: batch.checkpoints.map((c) => [c.name, c.position.toString()]) };
    emit(ack);
  };
  const logger = {
    info: () => undefined,
    error: (obj: object, msg: string) => process.stderr.write(`${msg} ${String((obj as { err?: unknown }).err)}\n`),
  };
  // A small write-behind threshold: documents are held across two batches (as in a real
  // catch-up) yet committed often enough to be killed between commits.
  const projector = new Projector(events, readStore, CRASH_PROJECTIONS, logger, { waitTimeoutMs: 60_000, batchSize, retryDelayMs: 50, writeBehindEvents: batchSize * 2 });
  await projector.start();
  emit({ ready: 'projector' });
  // The subscription's polling keeps the process alive until it is killed.
}

const [mode, dir, name = 'worker', seed = '1', batchSize = '20'] = process.argv.slice(2);
const run = mode === 'append' ? appendForever(dir, name, Number(seed)) : mode === 'project' ? projectForever(dir, Number(batchSize)) : Promise.reject(new Error(`unknown mode ${mode}`));
run.catch((error: unknown) => {
  process.stderr.write(`crash-worker ${mode} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(3);
});
