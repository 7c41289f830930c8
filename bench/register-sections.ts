/**
 * Issue 23, P8: where POST /register's time goes on a large history, section by section. Opens
 * the application in-process on a data directory built by bench/history-scale.ts (--data-dir),
 * as the bench's sender (the user with every message), and times each /register section's read
 * alone (`--runs` times each, after one warm-up read): median CPU time of the process (what a
 * shared, loaded machine measures best) and wall time, and the size of what it returns.
 *
 *   node dist/bench/register-sections.js --data-dir DIR [--runs 5] [--user-id N (another member of that organization)]
 *
 * Reads only; prints to stdout (no docs/benchmarks.md section).
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AuthenticationService, REGISTER_SECTIONS, type RegisterSection } from '@app/application';
import { startApp } from './app-harness';
import { fmtNum, intArg, now, parseArgs, runMain } from './support';

async function main() {
  const args = parseArgs();
  if (typeof args['data-dir'] !== 'string') throw new Error('--data-dir DIR (a directory built by bench/history-scale.ts) is required');
  const dir = resolve(args['data-dir']);
  const runs = intArg(args, 'runs', 5);
  const built = JSON.parse(readFileSync(join(dir, 'built.json'), 'utf8')) as { auth: string };
  const [email, apiKey] = Buffer.from(built.auth.replace(/^Basic /, ''), 'base64').toString().split(':');
  const { app } = await startApp(dir);
  try {
    const auth = app.get(AuthenticationService);
    let actor;
    for (let realmId = 1; realmId < 100 && !actor; realmId++) actor = await auth.authenticateApiKey(realmId, email, apiKey).then((a) => a.actor, () => undefined);
    if (!actor) throw new Error(`no realm with ${email}`);
    if (args['user-id'] !== undefined) actor = { ...actor, userId: intArg(args, 'user-id', 0), role: 'member' as const };
    const sections = app.get<RegisterSection[]>(REGISTER_SECTIONS);
    const rows: { type: string; ms: number; cpuMs: number; bytes: number }[] = [];
    for (const section of sections) {
      const options = { includeSubscribers: false };
      const out = await section.read(actor, options);
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = now();
        const c0 = process.cpuUsage();
        await section.read(actor, options);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
        times.push(now() - t0);
      }
      const median = (v: number[]) => v.sort((a, b) => a - b)[Math.floor(runs / 2)];
      rows.push({ type: section.fetchType, ms: median(times), cpuMs: median(cpu), bytes: JSON.stringify(out).length });
    }
    rows.sort((a, b) => b.cpuMs - a.cpuMs);
    process.stdout.write(`${'fetch type'.padEnd(40)} ${'CPU'.padStart(10)}    ${'wall'.padStart(10)}    ${'JSON'.padStart(10)}\n`);
    for (const r of rows) process.stdout.write(`${r.type.padEnd(40)} ${fmtNum(r.cpuMs, 2).padStart(10)} ms ${fmtNum(r.ms, 2).padStart(10)} ms ${String(r.bytes).padStart(10)} bytes\n`);
    process.stdout.write(`${'total'.padEnd(40)} ${fmtNum(rows.reduce((a, r) => a + r.cpuMs, 0), 2).padStart(10)} ms ${fmtNum(rows.reduce((a, r) => a + r.ms, 0), 2).padStart(10)} ms\n`);
  } finally {
    await app.close();
  }
}

runMain(main);
