import { ClientEventReactor } from '@app/application';
import {
  checkRun,
  type CompletenessServer,
  describeWorkload,
  drawWorkload,
  minimizeWorkload,
  runWorkload,
  settle,
  startCompletenessServer,
  type StepTally,
  workloadProblems,
} from '../support/event-completeness';

/**
 * Event completeness as a tested property (issue 39; test/support/event-completeness.ts): for
 * each seed, a random workload of sends, edits, moves, deletions, reactions, flags, subscription
 * changes, reports and mentions against several users' queues (some narrowed), then every
 * queue's events folded and held against GET /messages and a fresh register.
 *
 * Knobs (docs/events.md, "Event completeness"):
 *   EVENT_COMPLETENESS_SEEDS=200        how many seeds (1..n), or a list / ranges: "7", "3,9", "100-150"
 *   EVENT_COMPLETENESS_STEPS=12         steps per seed
 *   EVENT_COMPLETENESS_MINIMIZE=first   the first failing seed's workload is shrunk (ddmin, fresh servers, at most
 *                                       MINIMIZE_SECONDS) and printed; `all`/`1`: every failing seed's, unbounded; `0`: none
 *   EVENT_COMPLETENESS_RESTART_EVERY=25 a fresh server every n seeds
 * The split project runs this file too (fewer seeds by default: SPLIT_LAYOUT is set there).
 */
const SPLIT = process.env.SPLIT_LAYOUT === '1';
const SEEDS = seedList(process.env.EVENT_COMPLETENESS_SEEDS ?? (SPLIT ? '60' : '200'));
const STEPS = Number(process.env.EVENT_COMPLETENESS_STEPS ?? 12);
const MINIMIZE_MODE = process.env.EVENT_COMPLETENESS_MINIMIZE ?? 'first';
const MINIMIZE_ALL = MINIMIZE_MODE === '1' || MINIMIZE_MODE === 'all';
/** The default minimization (the first failure only) stays within the seed's own timeout. */
const MINIMIZE_SECONDS = 45;
let minimized = 0;
/** A fresh server every this many seeds: the runs of one server share its log and channels, and register grows with them. */
const RESTART_EVERY = Number(process.env.EVENT_COMPLETENESS_RESTART_EVERY ?? 25);

function seedList(spec: string): number[] {
  if (/^\d+$/.test(spec)) return Array.from({ length: Number(spec) }, (_, i) => i + 1);
  return spec.split(',').flatMap((part) => {
    const [lo, hi] = part.split('-').map(Number);
    return hi === undefined ? [lo] : Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  });
}

describe('event completeness: every change a user can see reaches each of their queues, once, in order, in shape', () => {
  jest.setTimeout(MINIMIZE_ALL ? 60 * 60_000 : 60_000 + MINIMIZE_SECONDS * 1000);
  let server: CompletenessServer;
  const tally: StepTally = {};
  let eventsChecked = 0;
  let seedsRun = 0;
  beforeAll(async () => {
    server = await startCompletenessServer();
  });
  afterAll(() => server.api.close());

  for (const [index, seed] of SEEDS.entries()) {
    it(`seed ${seed}`, async () => {
      if (index > 0 && index % RESTART_EVERY === 0) {
        await server.api.close();
        server = await startCompletenessServer();
      }
      const workload = drawWorkload(seed, STEPS);
      const problems = await workloadProblems(server, workload);
      seedsRun++;
      for (const [kind, t] of Object.entries(lastTally(server))) {
        const sum = (tally[kind] ??= { done: 0, refused: 0 });
        sum.done += t.done;
        sum.refused += t.refused;
      }
      eventsChecked += lastEventCount(server);
      if (problems.length === 0) return;
      let report = `seed ${seed} (${STEPS} steps): ${problems.length} problems\n${problems.slice(0, 25).join('\n')}\n\nworkload:\n${describeWorkload(workload)}`;
      report += `\n\nreplay: EVENT_COMPLETENESS_SEEDS=${seed} EVENT_COMPLETENESS_STEPS=${STEPS} npx jest test/api/event-completeness.api-spec.ts --selectProjects ${SPLIT ? "split" : "api"}`;
      if (MINIMIZE_ALL || (MINIMIZE_MODE === 'first' && minimized++ === 0)) {
        const deadlineMs = MINIMIZE_ALL ? undefined : Date.now() + MINIMIZE_SECONDS * 1000;
        const minimal = await minimizeWorkload(workload, { deadlineMs, log: (line) => process.stderr.write(`${line}\n`) });
        report += `\n\nminimized (each candidate on a fresh server):\n${describeWorkload(minimal.workload)}\nwhich gives:\n${minimal.problems.slice(0, 25).join('\n')}`;
      } else {
        report += ' (add EVENT_COMPLETENESS_MINIMIZE=all for the shortest failing workload of every seed)';
      }
      throw new Error(report);
    });
  }

  it('the workloads did what they were drawn to do (the checks above are not vacuous)', () => {
    if (seedsRun < 20) return; // a replay of a few seeds need not cover every kind
    const kinds = ['send-channel', 'send-dm', 'edit-content', 'edit-topic', 'move', 'delete', 'react', 'flag', 'subscribe', 'unsubscribe', 'report'];
    // Every kind of step succeeded in some seed (none is refused every time).
    expect(kinds.filter((kind) => (tally[kind]?.done ?? 0) === 0)).toEqual([]);
    expect(eventsChecked).toBeGreaterThan(seedsRun * 10);
  });

  it('notices an event that never reached the queues (the reactor stopped while a message was sent)', async () => {
    const workload = { ...drawWorkload(1, 0), queues: [{ who: 'hamlet' as const, narrow: null, bulkDeletion: true }] };
    const run = await runWorkload(server, workload);
    const reactors = server.api.apps.map((app) => app.get(ClientEventReactor));
    for (const reactor of reactors) await reactor.stop();
    const body = (await server.api.as('cordelia').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([server.api.user('hamlet').userId]), content: 'lost' })).body;
    expect(body.result).toBe('success');
    // Restarted, the reactors go on from the log's head: the send above never reaches a queue.
    for (const reactor of reactors) await reactor.start();
    await settle(server.api);
    const problems = await checkRun(server, run);
    expect(problems).toEqual([expect.stringContaining(`message ${body.id} (direct, "<p>lost</p>") is in GET /messages but no event brought it`)]);
  });
});

// The last run's tally and event count, kept on the server object by checkRun's caller.
function lastTally(server: CompletenessServer): StepTally {
  return server.lastRun?.tally ?? {};
}
function lastEventCount(server: CompletenessServer): number {
  return server.lastRun?.eventCount ?? 0;
}
