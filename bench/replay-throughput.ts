/**
 * Projection replay throughput: fills a temp embedded event store with realistic events
 * (RealmCreated, then users created and changed across a few realms), then times a Projector with
 * ALL_PROJECTIONS replaying from zero into a fresh SqliteReadStore until it has caught up.
 * The ports are wrapped in timers, so the result also says where the replay time goes.
 *
 *   node dist/bench/replay-throughput.js [--count 200000] [--realms 5] [--repeat 3] [--batch-size N (default: the projector's)]
 *        [--write-behind-events N (default: the projector's)]
 *        [--read-pragma "cache_size=-65536;..."] [--experiment diff-index-columns,index-cache,write-behind]
 *        [--cpu-profile FILE.cpuprofile] [--json FILE] [--fresh-load off]
 *
 * The read-model database is opened as the product opens one (openReadModelDatabase): a new file
 * loads in the fresh-load mode until the projector has caught up. `--fresh-load off` opens it in
 * WAL from the start instead, for comparison.
 *
 * The log is filled once and replayed `--repeat` times, each into a fresh read-model file; the
 * result is the median run (all runs are listed), the CPU profile is of the first.
 *
 * Target: >= 50,000 events/s.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { CREDENTIALS, type EventStorePort, type EventToAppend, REALMS, type ReadStorePort, USERS } from '@app/application';
import { isFreshLoad, openReadModelDatabase, openSqlite } from '@app/infrastructure/embedded/sqlite';
import { SqliteEventStore } from '@app/infrastructure/embedded/sqlite-event-store';
import { SqliteReadStore } from '@app/infrastructure/embedded/sqlite-read-store';
import { ALL_PROJECTIONS, Projector } from '@app/projections';
import { REALM_REGISTRY_STREAM, usersStream } from '@app/domain';
import { EventFactory, rng, toAppend } from './events';
import { DiffingSqliteReadStore, WriteBehindReadStore } from './read-store-experiment';
import {
  type BenchResult,
  commandLine,
  emitResult,
  fmtInt,
  fmtNum,
  intArg,
  now,
  parseArgs,
  printRows,
  progress,
  type ResultRow,
  runMain,
  stringArg,
  tempDir,
} from './support';

const TARGET_EVENTS_PER_SECOND = 50_000;

/**
 * Appends `count` events: one RealmCreated per realm on the registry stream, then bursts of
 * activity in one realm at a time (about half the events create a user, the rest change one).
 * Each burst is appended in chunks of up to 100 events to the realm's users stream.
 */
async function fill(store: EventStorePort, count: number, realms: number) {
  const random = rng(2024);
  const events = new EventFactory(random);
  const usersByRealm = new Map<number, number[]>();
  const revisions = new Map<string, bigint>();
  const append = async (streamId: string, batch: EventToAppend[]) => {
    const current = revisions.get(streamId);
    const { nextExpectedRevision } = await store.appendToStream(streamId, batch, { expectedRevision: current ?? 'no_stream' });
    revisions.set(streamId, nextExpectedRevision);
  };
  await append(
    REALM_REGISTRY_STREAM,
    Array.from({ length: realms }, (_, i) => toAppend(events.realmCreated(i + 1))),
  );
  for (let realmId = 1; realmId <= realms; realmId++) usersByRealm.set(realmId, []);
  let written = realms;
  let nextUserId = 1;
  const counts: Record<string, number> = { RealmCreated: realms };
  let nextReport = now() + 2000;
  while (written < count) {
    const realmId = 1 + Math.floor(random() * realms);
    const users = usersByRealm.get(realmId)!;
    const burst = Math.min(count - written, 20 + Math.floor(random() * 300));
    let chunk: EventToAppend[] = [];
    for (let i = 0; i < burst; i++) {
      const event =
        users.length === 0 || random() < 0.5
          ? events.userCreated(realmId, (users.push(nextUserId), nextUserId++))
          : events.userChanged(realmId, users[Math.floor(random() * users.length)]);
      counts[event.type] = (counts[event.type] ?? 0) + 1;
      chunk.push(toAppend(event));
      if (chunk.length === 100) {
        await append(usersStream(realmId), chunk);
        chunk = [];
      }
    }
    if (chunk.length > 0) await append(usersStream(realmId), chunk);
    written += burst;
    if (now() > nextReport) {
      progress(`fill: ${fmtInt(written)} / ${fmtInt(count)} events`);
      nextReport = now() + 2000;
    }
  }
  return { users: nextUserId - 1, counts };
}

type Timer = { ms: number; calls: number };
type ReplayRun = { rate: number; replayMs: number; cpu: NodeJS.CpuUsage; timers: Record<string, Timer>; stored: Record<string, number> };

/** Wraps async methods of an object so that their elapsed time is summed (calls never overlap here). */
function timed<T extends object>(target: T, methods: (keyof T & string)[], timers: Record<string, Timer>): T {
  for (const method of methods) {
    const original = (target[method] as (...a: unknown[]) => Promise<unknown>).bind(target);
    const timer: Timer = (timers[method] = { ms: 0, calls: 0 });
    (target as Record<string, unknown>)[method] = async (...a: unknown[]) => {
      const start = now();
      try {
        return await original(...a);
      } finally {
        timer.ms += now() - start;
        timer.calls++;
      }
    };
  }
  return target;
}

/** Profiles the replay phase only (the fill would swamp a whole-process --cpu-prof). */
async function startProfiler() {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = await post('Profiler.stop');
      session.disconnect();
      return profile as object;
    },
  };
}

async function main() {
  const args = parseArgs();
  const count = intArg(args, 'count', 200_000);
  const realms = Math.max(1, intArg(args, 'realms', 5));
  // Unset: the projector's own default, as the product runs it.
  const batchSize = args['batch-size'] === undefined ? undefined : Math.max(1, intArg(args, 'batch-size', 1000));
  const writeBehindEvents = args['write-behind-events'] === undefined ? undefined : Math.max(1, intArg(args, 'write-behind-events', 20_000));
  const readPage = batchSize ?? 1000;
  const experiments = stringArg(args, 'experiment', 'none').split(',').map((e) => e.trim()).filter((e) => e !== 'none');
  const known = ['diff-index-columns', 'index-cache', 'write-behind'];
  for (const e of experiments) if (!known.includes(e)) throw new Error(`unknown --experiment ${e} (known: ${known.join(', ')})`);
  const experiment = experiments.length > 0 ? experiments.join(',') : 'none';
  const cpuProfile = typeof args['cpu-profile'] === 'string' ? args['cpu-profile'] : undefined;
  const repeat = Math.max(1, intArg(args, 'repeat', 3));
  const readPragmas = typeof args['read-pragma'] === 'string' ? args['read-pragma'].split(';').map((p) => p.trim()).filter(Boolean) : [];
  const began = now();
  const dir = tempDir('replay');
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  let targetMet = false;
  try {
    const eventsDb = openSqlite(join(dir.path, 'events.sqlite'));
    const eventStore = new SqliteEventStore(eventsDb);
    progress(`fill: appending ${fmtInt(count)} events over ${realms} realms`);
    const fillStart = now();
    const { users, counts } = await fill(eventStore, count, realms);
    const fillMs = now() - fillStart;
    const mix = Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([type, n]) => `${type} ${fmtNum((n / count) * 100, 1)}%`)
      .join(', ');
    notes.push(`${fmtInt(count)} events (${mix}); ${fmtInt(users)} users in ${realms} realms.`);
    rows.push({
      metric: 'fill: port appendToStream, chunks of up to 100 events',
      value: (count / fillMs) * 1000,
      unit: 'events/s',
      detail: `${fmtNum(fillMs / 1000, 1)} s`,
    });
    progress(`fill: done in ${fmtNum(fillMs / 1000, 1)} s`);

    // The log read alone (readAll + JSON.parse of every event): the ceiling for any projector.
    progress('readAll alone, same batch size');
    const readStart = now();
    let read = 0;
    let after: bigint | undefined;
    for (;;) {
      const page = await eventStore.readAll({ after, maxCount: readPage });
      if (page.length === 0) break;
      read += page.length;
      after = page[page.length - 1].position;
    }
    const readMs = now() - readStart;
    rows.push({ metric: `event store readAll alone, pages of ${readPage}`, value: (read / readMs) * 1000, unit: 'events/s' });

    // The replay, `repeat` times into a fresh read-model file each: one replay takes a few seconds,
    // and a shared machine moves a single run by ±20 %, so the median run is the result.
    const freshLoad = stringArg<'on' | 'off'>(args, 'fresh-load', 'on', ['on', 'off']) === 'on';
    notes.push(
      freshLoad
        ? 'read models opened as the product opens a new read-model database: journal in memory, no fsync and an exclusive lock until the projector caught up, then fsync and WAL (included in the replay time).'
        : 'EXPERIMENT --fresh-load off: the read-model database is in WAL mode from the start.',
    );
    if (readPragmas.length > 0) notes.push(`read store connection tuned with PRAGMA ${readPragmas.join('; ')}.`);
    if (experiment !== 'none') notes.push(`EXPERIMENT ${experiment}: the read store is bench/read-store-experiment.ts, not the product's.`);

    const replayOnce = async (run: number): Promise<ReplayRun> => {
      const readModelsFile = join(dir.path, `read-models-${run}.sqlite`);
      const readDb = freshLoad ? openReadModelDatabase(readModelsFile) : openSqlite(readModelsFile);
      // Experiments only: `--read-pragma "cache_size=-65536;wal_autocheckpoint=10000"` tunes the read store's connection.
      for (const pragma of readPragmas) readDb.pragma(pragma);
      const timers: Record<string, Timer> = {};
      const baseReadStore =
        experiments.every((e) => e === 'write-behind')
          ? new SqliteReadStore(readDb)
          : new DiffingSqliteReadStore(readDb, {
              diff: experiments.includes('diff-index-columns') || experiments.includes('index-cache'),
              indexCache: experiments.includes('index-cache'),
            });
      const readStore = timed<ReadStorePort>(baseReadStore, ['getMany', 'commit', 'getCheckpoints'], timers);
      const events = timed<EventStorePort>(Object.create(eventStore) as EventStorePort, ['readAll'], timers);
      const writeBehind = experiments.includes('write-behind') ? new WriteBehindReadStore(readStore, 100_000) : undefined;
      const errors: object[] = [];
      const projector = new Projector(events, writeBehind ? writeBehind.port() : readStore, ALL_PROJECTIONS, { info: () => undefined, error: (o) => errors.push(o) }, {
        waitTimeoutMs: 10_000,
        ...(batchSize === undefined ? {} : { batchSize }),
        ...(writeBehindEvents === undefined ? {} : { writeBehindEvents }),
      });
      const reporter = setInterval(() => progress(`replay ${run}: position ${fmtInt(Number(projector.position))} / ${fmtInt(count)}`), 2000);
      progress(`replay ${run}/${repeat}: ${ALL_PROJECTIONS.length} projections, batch size ${batchSize ?? 'the projector default'}`);
      const profiler = cpuProfile && run === 1 ? await startProfiler() : undefined;
      const replayStart = now();
      const cpuStart = process.cpuUsage();
      await projector.start();
      await projector.catchUp();
      await writeBehind?.flush();
      const replayMs = now() - replayStart;
      const cpu = process.cpuUsage(cpuStart);
      if (isFreshLoad(readDb)) throw new Error('the read-model database is still in its fresh-load mode after the replay');
      if (profiler && cpuProfile) {
        writeFileSync(cpuProfile, JSON.stringify(await profiler.stop()));
        progress(`replay CPU profile written to ${cpuProfile} (summarise: node dist/bench/cpuprofile-summary.js ${cpuProfile})`);
      }
      clearInterval(reporter);
      await projector.stop();
      if (errors.length > 0) throw new Error(`projector errors: ${JSON.stringify(errors[0])}`);

      // The read models must hold what the log says.
      const stored = {
        realms: await readStore.count(REALMS),
        users: await readStore.count(USERS),
        credentials: await readStore.count(CREDENTIALS),
      };
      if (stored.realms !== realms || stored.users !== users || stored.credentials !== users) {
        throw new Error(`read models incomplete: ${JSON.stringify(stored)}, expected ${realms} realms and ${users} users`);
      }
      readDb.close();
      return { rate: (count / replayMs) * 1000, replayMs, cpu, timers, stored };
    };

    const runs: ReplayRun[] = [];
    for (let run = 1; run <= repeat; run++) runs.push(await replayOnce(run));
    const byRate = [...runs].sort((a, b) => a.rate - b.rate);
    const median = byRate[Math.floor((byRate.length - 1) / 2)];
    const { replayMs, cpu, timers, stored } = median;
    targetMet = median.rate >= TARGET_EVENTS_PER_SECOND;
    rows.push({
      metric: `projector replay from zero, ALL_PROJECTIONS into ${experiment === 'none' ? 'SqliteReadStore' : `read store experiment ${experiment}`}: median of ${repeat}`,
      value: median.rate,
      unit: 'events/s',
      detail: `runs ${runs.map((r) => fmtInt(r.rate)).join(', ')} events/s; median run ${fmtNum(replayMs / 1000, 2)} s, CPU user ${fmtNum(cpu.user / 1e6, 1)} s + system ${fmtNum(cpu.system / 1e6, 1)} s = ${fmtInt(count / ((cpu.user + cpu.system) / 1e6))} events per CPU-second; target ${fmtInt(TARGET_EVENTS_PER_SECOND)}: ${targetMet ? 'met' : 'MISSED'}`,
    });
    const share = (ms: number) => `${fmtNum((ms / replayMs) * 100, 0)}% of replay time`;
    const accounted = Object.values(timers).reduce((n, t) => n + t.ms, 0);
    const parts: [string, string][] = [
      ['readAll', 'event store readAll (SQLite read + JSON.parse), in the subscription'],
      ['getMany', 'read store getMany (loading the documents a batch touches)'],
      ['commit', 'read store commit (JSON.stringify + upserts + indexes, one transaction)'],
      ['getCheckpoints', 'read store getCheckpoints (once per batch)'],
    ];
    for (const [key, label] of parts) {
      const t = timers[key];
      rows.push({ metric: `  of which ${label}`, value: t.ms, unit: 'ms', detail: `${share(t.ms)}, ${fmtInt(t.calls)} calls (median run)` });
    }
    rows.push({
      metric: '  of which projector itself (filtering, evolve, bookkeeping)',
      value: replayMs - accounted,
      unit: 'ms',
      detail: share(replayMs - accounted),
    });
    notes.push(`read models after replay: ${JSON.stringify(stored)}.`);
    await eventStore.close();
    eventsDb.close();
  } finally {
    dir.remove();
  }

  const result: BenchResult = {
    name: 'replay-throughput',
    title: 'Projection replay from zero',
    command: commandLine(),
    params: { count, realms, repeat, batchSize: batchSize ?? 'projector default', ...(writeBehindEvents === undefined ? {} : { writeBehindEvents }), ...(experiment !== 'none' ? { experiment } : {}), ...(readPragmas.length > 0 ? { readPragma: readPragmas.join(';') } : {}) },
    rows,
    notes,
    targets: [{ description: `replay >= ${fmtInt(TARGET_EVENTS_PER_SECOND)} events/s`, met: targetMet }],
    durationMs: now() - began,
  };
  printRows(result.title, rows);
  emitResult(args, result);
}

runMain(main);
