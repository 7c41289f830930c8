/**
 * S8, the long run of the event-completeness property (test/support/event-completeness.ts): many
 * more seeds than CI's 200, longer workloads, bounded in count and in time, on the embedded server
 * (or the split layout), each failing seed printed with its workload and, with --minimize, the
 * shortest workload that still fails. The short run is test/api/event-completeness.api-spec.ts.
 *
 *   npm run reliability:events                                  # seeds 1001…3000, 24 steps, at most 20 minutes
 *   npm run reliability:events -- --from 5000 --seeds 500 --steps 40 --minutes 10 --minimize
 *   npm run reliability:events -- --split                       # one worker + two API applications
 *
 * Options: --from (first seed, 1001), --seeds (how many, 2000), --steps (per seed, 24), --minutes
 * (stop starting seeds after this, 20), --restart-every (a fresh server every n seeds, 25: the
 * runs of one server share its log, and register grows with its channels), --minimize, --split, --stop-after (failures, 5).
 */
import 'reflect-metadata';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);

async function main() {
  // Read when the test support is loaded: set first.
  if (flag('split')) process.env.SPLIT_LAYOUT = '1';
  const { describeWorkload, drawWorkload, minimizeWorkload, startCompletenessServer, workloadProblems } = await import('../support/event-completeness');
  const from = arg('from', 1001);
  const count = arg('seeds', 2000);
  const steps = arg('steps', 24);
  const deadline = Date.now() + arg('minutes', 20) * 60_000;
  const restartEvery = arg('restart-every', 25);
  const stopAfter = arg('stop-after', 5);
  const started = Date.now();
  const tally: Record<string, { done: number; refused: number }> = {};
  const failures: { seed: number; problems: string[] }[] = [];
  let server = await startCompletenessServer();
  let ran = 0;
  let events = 0;
  for (let seed = from; seed < from + count && Date.now() < deadline && failures.length < stopAfter; seed++) {
    if (ran > 0 && ran % restartEvery === 0) {
      await server.api.close();
      server = await startCompletenessServer();
    }
    const workload = drawWorkload(seed, steps);
    let problems: string[];
    try {
      problems = await workloadProblems(server, workload);
    } catch (error) {
      problems = [`the run failed: ${(error as Error).message}`];
    }
    ran++;
    events += server.lastRun?.eventCount ?? 0;
    for (const [kind, t] of Object.entries(server.lastRun?.tally ?? {})) {
      const sum = (tally[kind] ??= { done: 0, refused: 0 });
      sum.done += t.done;
      sum.refused += t.refused;
    }
    if (problems.length > 0) {
      failures.push({ seed, problems });
      console.log(`FAIL seed ${seed} (${steps} steps): ${problems.length} problems\n${problems.slice(0, 20).join('\n')}\n${describeWorkload(workload)}`);
      if (flag('minimize')) {
        const minimal = await minimizeWorkload(workload, { log: (line) => process.stderr.write(`  ${line}\n`) });
        console.log(`minimized:\n${describeWorkload(minimal.workload)}\nwhich gives:\n${minimal.problems.slice(0, 20).join('\n')}`);
      }
    }
    if (ran % 50 === 0) process.stderr.write(`  ${ran} seeds, ${failures.length} failing, ${Math.round((Date.now() - started) / 1000)} s\n`);
  }
  await server.api.close();
  const seconds = (Date.now() - started) / 1000;
  console.log(JSON.stringify({
    layout: flag('split') ? 'split' : 'single', seeds: ran, from, steps, seconds: Math.round(seconds), perSeedMs: Math.round((seconds * 1000) / Math.max(ran, 1)),
    eventsChecked: events, failing: failures.map((f) => f.seed), steps_done_refused: tally,
  }, null, 2));
  process.exit(failures.length === 0 && ran > 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
