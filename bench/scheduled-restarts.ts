import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { join, resolve, sep } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateRealmCommand,
  CreateUserCommand,
  EVENT_STORE,
  type EventStorePort,
  type EventToAppend,
  ID_ALLOCATOR,
  type IdAllocatorPort,
  READ_STORE,
  type ReadStorePort,
  SCHEDULED_MESSAGES,
  ScheduledDeliveries,
  SCHEDULER,
  ProjectionWaiter,
  DeliverScheduledMessageHandler,
  type ClockPort,
} from '@app/application';
import { CURRENT_SCHEMA_VERSION, operatorActor, SCHEDULED_MESSAGE_SEQUENCE, scheduledMessageStream } from '@app/domain';
import { type AppConfig, loadConfig } from '@app/config';
import { createLogger, type TimerScheduler } from '@app/infrastructure';
import { AppModule } from '../apps/api/src/app.module';
import { WorkerModule } from '../apps/worker/src/worker.module';
import { type Args, type BenchResult, commandLine, emitResult, intArg, parseArgs, printRows, progress, runMain, tempDir } from './support';
import { writeDocSection } from './app-harness';

/** A clock the scenario moves by hand (deliveries happen when it says they are due). */
class ManualClock implements ClockPort {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  set(date: Date): void {
    this.current = new Date(date);
  }
}

/**
 * S2 (issue 12) and issue 7's restart and race tests: scheduled messages across restarts.
 *
 *   node dist/bench/scheduled-restarts.js [--count 1000] [--restarts 3] [--crash-every 23] [--no-doc] [--json FILE]
 *
 * test/api/scheduled-messages-restart.api-spec.ts runs the same scenario with 10,000. `count`
 * pending scheduled messages survive `restarts` restarts of the application on the same data
 * directory, deliveries run between them, some deliveries "crash" between their steps, and the
 * last phase runs two workers racing on the same stores. Every scheduled message must end up
 * delivered exactly once: one `MessageSent` each, with the id its claim recorded.
 *
 * Restarts here close the application in-process and open a new one on the same files (the
 * embedded scheduler's timers die with it; the boot re-arm schedules what is pending again).
 * Crashes are injected at the two dangerous points: after the claim (the message append throws)
 * and after the message append (the confirmation throws); a crashed delivery is left as it is
 * until the next start recovers it.
 */
export type RestartScenarioOptions = {
  count: number;
  restarts: number;
  /** Every n-th scheduled message crashes after its claim / after its message append in the first phase. */
  crashEvery?: number;
  racingWorkers?: boolean;
  progress?: (message: string) => void;
};

export type RestartScenarioResult = {
  scheduled: number;
  deliveredDocuments: number;
  messagesSent: number;
  distinctDelivered: number;
  duplicates: number;
  missing: number;
  failed: number;
  crashesInjected: number;
  /** Deliveries each racing instance made in the last phase (API, worker). */
  racingDeliveries: number[];
  /** Every message sent carries the id the claim recorded. */
  idsMatchClaims: boolean;
  durationMs: number;
};

const T0 = '2026-01-01T00:00:00.000Z';
const T0_S = Date.parse(T0) / 1000;
/** Deliveries spread over five minutes from one minute on, so every phase stays within Zulip's ten-minute lateness cutoff. */
const SPREAD_S = 300;

type Instance = { app: INestApplicationContext; close(): Promise<void> };

async function boot(config: AppConfig, clock: ManualClock, kind: 'api' | 'worker' = 'api'): Promise<Instance> {
  const logger = createLogger('silent');
  const module = kind === 'api' ? AppModule.forRoot({ config, clock, logger }) : WorkerModule.forRoot({ config: { ...config, runProjectors: false }, clock, logger });
  const app = await NestFactory.createApplicationContext(module, { logger: false });
  await app.init();
  return { app, close: () => app.close() };
}

/**
 * Counts the deliveries this instance made (the handler's 'delivered' outcomes). A `gate` holds
 * the instance's deliveries back until it resolves.
 */
function countDeliveries(instance: Instance, counts: number[], index: number, gate?: Promise<void>, onDelivered?: () => void): void {
  const handler = instance.app.get(DeliverScheduledMessageHandler);
  const execute = handler.execute.bind(handler);
  counts[index] = 0;
  handler.execute = async (command) => {
    if (gate) await gate;
    const outcome = await execute(command);
    if (outcome === 'delivered') {
      counts[index]++;
      onDelivered?.();
    }
    return outcome;
  };
}

/** How long the API instance waits for the worker's first delivery before racing anyway. */
const RACE_GATE_MS = 60_000;

async function drain(instances: Instance[], expectDelivered: (n: number) => boolean, readStore: () => ReadStorePort): Promise<void> {
  await Promise.all(instances.map((i) => i.app.get(ScheduledDeliveries).rearmed));
  for (let round = 0; round < 10_000; round++) {
    await Promise.all(instances.map((i) => i.app.get<TimerScheduler>(SCHEDULER).runDue()));
    const delivered = await readStore().count(SCHEDULED_MESSAGES, { delivered: true });
    if (expectDelivered(delivered)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('deliveries did not finish');
}

export async function runScheduledRestartScenario(options: RestartScenarioOptions): Promise<RestartScenarioResult> {
  const started = Date.now();
  const log = options.progress ?? (() => undefined);
  const dir = tempDir('scheduled-restarts');
  const clock = new ManualClock(new Date(T0));
  const config = loadConfig({
    NODE_ENV: 'test', DATA_DIR: dir.path, LOG_LEVEL: 'silent', PORT: '0', RATE_LIMIT_USER_REQUESTS: '0', RATE_LIMIT_IP_REQUESTS: '0', PASSWORD_HASH_COST: '4',
  });
  let crashesInjected = 0;
  const racingDeliveries: number[] = [];
  try {
    // Setup and the pending scheduled messages (appended directly, as ScheduleMessage would).
    let instance = await boot(config, clock);
    const bus = instance.app.get(CommandBus);
    const { realmId } = await bus.execute(new CreateRealmCommand('acme', 'Acme Corp'));
    const user = (email: string, fullName: string) =>
      bus.execute(new CreateUserCommand({ actor: operatorActor(realmId) }, { email, fullName, role: 'member', password: null }));
    const hamlet = (await user('hamlet@acme.test', 'King Hamlet')).userId;
    const cordelia = (await user('cordelia@acme.test', 'Cordelia Lear')).userId;
    const events = instance.app.get<EventStorePort>(EVENT_STORE);
    const first = await instance.app.get<IdAllocatorPort>(ID_ALLOCATOR).nextBlock(SCHEDULED_MESSAGE_SEQUENCE, options.count);
    const ids = Array.from({ length: options.count }, (_, i) => first + i);
    let position: bigint | undefined;
    for (const [i, id] of ids.entries()) {
      const deliverAt = T0_S + 60 + (i % SPREAD_S);
      const event: EventToAppend = {
        id: randomUUID(),
        type: 'ScheduledMessageCreated',
        data: {
          scheduledMessageId: id, realmId, senderId: hamlet, recipient: { type: 'private', userIds: [cordelia] },
          content: `scheduled #${id}`, renderedContent: `<p>scheduled #${id}</p>`, deliverAt, client: 'test', readBySender: false, at: T0,
        },
        metadata: { schemaVersion: CURRENT_SCHEMA_VERSION },
      };
      ({ position } = await events.appendToStream(scheduledMessageStream(id), [event], { expectedRevision: 'no_stream' }));
    }
    await instance.app.get(ProjectionWaiter).waitFor(position);
    log(`${options.count} scheduled messages pending`);

    // Phases: between restarts, part of the spread becomes due and is delivered.
    const crashEvery = options.crashEvery ?? 0;
    for (let phase = 0; phase <= options.restarts; phase++) {
      const last = phase === options.restarts;
      clock.set(new Date((T0_S + 60 + Math.round((SPREAD_S * (phase + 1)) / (options.restarts + 1))) * 1000));
      if (phase === 0 && crashEvery > 0) {
        // The first phase's store "crashes" some deliveries between their steps.
        const store = instance.app.get<EventStorePort>(EVENT_STORE);
        const append = store.appendToStream.bind(store);
        store.appendToStream = async (streamId, toAppend, opts) => {
          const type = toAppend[0]?.type;
          const scheduledId = type === 'MessageSent' ? Number(toAppend[0].metadata.scheduledMessageId) : type === 'ScheduledMessageDelivered' ? Number(streamId.split('-')[1]) : NaN;
          if (type === 'MessageSent' && scheduledId % crashEvery === 0) {
            crashesInjected++;
            throw new Error('simulated crash after the claim');
          }
          if (type === 'ScheduledMessageDelivered' && scheduledId % crashEvery === 1) {
            crashesInjected++;
            throw new Error('simulated crash after the message append');
          }
          return append(streamId, toAppend, opts);
        };
      }
      // The first instance never armed the seeded messages (they bypassed ScheduleMessage): arm them as it would have.
      if (phase === 0) await instance.app.get(ScheduledDeliveries).rearm();
      const due = ids.filter((_, i) => T0_S + 60 + (i % SPREAD_S) <= clock.now().getTime() / 1000).length;
      let instances = [instance];
      if (last && options.racingWorkers) {
        // apps/worker's module beside the API's, on the same stores: two processes delivering.
        // Both take the due messages in the same order, so whichever starts first can stay ahead
        // and claim every one (the API starts first: its timers run while the worker boots). The
        // API's deliveries wait for the worker's first one, then both race for the rest.
        let workerDelivered!: () => void;
        const gate = new Promise<void>((resolve) => {
          workerDelivered = resolve;
          setTimeout(resolve, RACE_GATE_MS).unref();
        });
        countDeliveries(instance, racingDeliveries, 0, gate);
        const worker = await boot(config, clock, 'worker');
        countDeliveries(worker, racingDeliveries, 1, undefined, () => workerDelivered());
        instances = [instance, worker];
      }
      const readStore = () => instance.app.get<ReadStorePort>(READ_STORE);
      if (phase === 0 && crashEvery > 0) {
        // Crashed deliveries stay unfinished in this phase: wait for the others only.
        await Promise.all(instances.map((i) => i.app.get(ScheduledDeliveries).rearmed));
        await instance.app.get<TimerScheduler>(SCHEDULER).runDue();
      } else {
        await drain(instances, (n) => n >= due, readStore);
      }
      log(`phase ${phase + 1}/${options.restarts + 1}: ${await readStore().count(SCHEDULED_MESSAGES, { delivered: true })} delivered (${due} due)`);
      for (const i of instances) await i.close();
      // The next phase (or, after the last, a start that only reads the outcome) on the same files.
      instance = await boot(config, clock);
    }

    // The outcome, from the log itself and from the read model.
    const sent = new Map<number, number[]>();
    const claims = new Map<number, number>();
    let after: bigint | undefined;
    for (;;) {
      const page = await instance.app.get<EventStorePort>(EVENT_STORE).readAll({ after, maxCount: 5000 });
      if (page.length === 0) break;
      for (const e of page) {
        if (e.type === 'MessageSent') {
          const match = /^scheduled #(\d+)$/.exec((e.data as { content: string }).content);
          if (match) sent.set(Number(match[1]), [...(sent.get(Number(match[1])) ?? []), (e.data as { messageId: number }).messageId]);
        }
        if (e.type === 'ScheduledMessageDeliveryClaimed') claims.set((e.data as { scheduledMessageId: number }).scheduledMessageId, (e.data as { messageId: number }).messageId);
      }
      after = page[page.length - 1].position;
    }
    const readStore = instance.app.get<ReadStorePort>(READ_STORE);
    const result: RestartScenarioResult = {
      scheduled: options.count,
      deliveredDocuments: await readStore.count(SCHEDULED_MESSAGES, { delivered: true }),
      messagesSent: [...sent.values()].reduce((n, list) => n + list.length, 0),
      distinctDelivered: sent.size,
      duplicates: [...sent.values()].reduce((n, list) => n + Math.max(0, list.length - 1), 0),
      missing: ids.filter((id) => !sent.has(id)).length,
      failed: await readStore.count(SCHEDULED_MESSAGES, { failed: true }),
      crashesInjected,
      racingDeliveries,
      idsMatchClaims: [...sent.entries()].every(([id, list]) => list.every((m) => claims.get(id) === m)),
      durationMs: Date.now() - started,
    };
    await instance.close();
    return result;
  } finally {
    // Let other areas' boot-time directory work (uploads) settle before the directory goes.
    await new Promise((resolve) => setTimeout(resolve, 500));
    dir.remove();
  }
}

/** The repository root, from dist/bench (built) or bench/ (run from source with a require hook). */
const ROOT = resolve(__dirname, __dirname.includes(`${sep}dist${sep}`) ? '../..' : '..');
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const START = '<!-- bench:scheduled-restarts:start (generated by bench/scheduled-restarts.ts; edits inside are overwritten) -->';
const END = '<!-- bench:scheduled-restarts:end -->';

async function main(args: Args = parseArgs()): Promise<void> {
  const count = intArg(args, 'count', args.quick ? 200 : 1000);
  const restarts = intArg(args, 'restarts', 3);
  const crashEvery = intArg(args, 'crash-every', 23);
  const result = await runScheduledRestartScenario({ count, restarts, crashEvery, racingWorkers: true, progress });
  const exactlyOnce = result.duplicates === 0 && result.missing === 0 && result.failed === 0 && result.deliveredDocuments === count && result.idsMatchClaims;
  const bench: BenchResult = {
    name: 'scheduled-restarts',
    title: 'S2: scheduled messages across restarts',
    command: commandLine(),
    params: { count, restarts, crashEvery },
    rows: [
      { metric: 'scheduled messages pending at the start', value: count, unit: '' },
      { metric: 'restarts', value: restarts, unit: '', detail: 'the application closed and reopened on the same data directory' },
      { metric: 'deliveries crashed between their steps (first phase)', value: result.crashesInjected, unit: '', detail: `ids divisible by ${crashEvery} crash after their claim, the ids after those after their message append` },
      { metric: 'messages sent', value: result.messagesSent, unit: '', detail: `${result.distinctDelivered} distinct scheduled messages` },
      { metric: 'duplicates', value: result.duplicates, unit: '' },
      { metric: 'missing', value: result.missing, unit: '' },
      { metric: 'deliveries by the racing API / worker (last phase)', value: result.racingDeliveries.reduce((a, b) => a + b, 0), unit: '', detail: result.racingDeliveries.join(' / ') },
    ],
    notes: [
      'Restarts close the application in-process and open it again on the same files; crashes are injected into the event store at the two points between the streams (after the claim, after the message append).',
      'Each message is checked in the log: exactly one MessageSent per scheduled message, with the message id its claim recorded.',
    ],
    targets: [{ description: 'each scheduled message delivered exactly once', met: exactlyOnce }],
    durationMs: result.durationMs,
  };
  printRows(bench.title, bench.rows);
  emitResult(args, bench);
  if (!args['no-doc'] && !args.json) writeDocSection(DOC, START, END, bench.title, bench);
  if (!exactlyOnce) throw new Error(`not exactly once: ${JSON.stringify(result)}`);
}

if (require.main === module) runMain(() => main());
