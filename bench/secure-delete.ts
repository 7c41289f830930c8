/**
 * Issue 35 item 4: what `PRAGMA secure_delete = ON` on the read-model databases costs, paired in
 * one run on one server. One application (embedded stores in a temp directory, one channel of
 * `--subscribers` members); the pragma of every live read-model connection is switched off and on
 * between slices (ON, OFF, OFF, ON, … so that neither mode always goes first), and each slice sends
 * `--messages` messages one after another over one keep-alive connection, deleting every
 * `--delete-every`th one (deletions are where the pragma writes more). Then the same log is
 * rebuilt blue/green `--rebuilds` times in each mode, alternately, the new copy's connection set
 * to the mode under test.
 *
 *   node -r ./test/crash/register-swc.js bench/secure-delete.ts [--slices 10] [--messages 300] [--subscribers 50] [--delete-every 10] [--rebuilds 3]
 *
 * Prints its numbers; docs/benchmarks.md ("Erasure: secure_delete") records a run by hand.
 */
import 'reflect-metadata';
import type Database from 'better-sqlite3';
import { LIVE_READ_MODELS, type LiveReadModels } from '@app/application';
import { ProjectionRebuilder } from '@app/projections';
import { createBenchRealm, seedUsers, singleConnection, startApp } from './app-harness';
import { fmtNum, intArg, now, parseArgs, progress, runMain, tempDir } from './support';

type Copies = { databases(): { db: Database.Database }[]; create: (...args: unknown[]) => Promise<unknown> };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const args = parseArgs();
  const slices = intArg(args, 'slices', 10);
  const perSlice = intArg(args, 'messages', 300);
  const subscribers = intArg(args, 'subscribers', 50);
  const deleteEvery = intArg(args, 'delete-every', 10);
  const rebuilds = intArg(args, 'rebuilds', 3);
  const dir = tempDir('secure-delete');
  const { app, port } = await startApp(dir.path);
  try {
    const { realmId, auth } = await createBenchRealm(app);
    const members = await seedUsers(app, realmId, subscribers);
    const http = singleConnection();
    const api = { port, auth };
    await http.ok(api, 'POST', '/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'crowd' }]), principals: JSON.stringify(members) });
    const copies = (app.get<LiveReadModels>(LIVE_READ_MODELS).copies as unknown) as Copies;
    const setMode = (on: boolean) => {
      for (const { db } of copies.databases()) db.pragma(`secure_delete = ${on ? 'ON' : 'OFF'}`);
    };
    const send = async (n: number) => (await http.ok(api, 'POST', '/api/v1/messages', { type: 'stream', to: 'crowd', topic: `load ${n % 20}`, content: `A message under **sustained** load, number ${n}, with a [link](https://example.com).` })).id as number;

    // Warm-up, in the default mode (on).
    for (let i = 0; i < 100; i++) await send(i);
    const perMode: Record<'on' | 'off', { wallUs: number[]; cpuUs: number[] }> = { on: { wallUs: [], cpuUs: [] }, off: { wallUs: [], cpuUs: [] } };
    let n = 100;
    for (let s = 0; s < slices; s++) {
      // ON OFF OFF ON ON OFF …: each mode follows each as often.
      const on = Math.floor((s + 1) / 2) % 2 === 0;
      setMode(on);
      const cpu = process.cpuUsage();
      const start = now();
      for (let i = 0; i < perSlice; i++) {
        const id = await send(n++);
        if (deleteEvery > 0 && i % deleteEvery === deleteEvery - 1) await http.ok(api, 'DELETE', `/api/v1/messages/${id}`);
      }
      const requests = perSlice + (deleteEvery > 0 ? Math.floor(perSlice / deleteEvery) : 0);
      const used = process.cpuUsage(cpu);
      const mode = perMode[on ? 'on' : 'off'];
      mode.wallUs.push(((now() - start) * 1000) / requests);
      mode.cpuUs.push((used.user + used.system) / requests);
      progress(`slice ${s + 1}/${slices} secure_delete ${on ? 'ON ' : 'OFF'}: ${fmtNum(mode.wallUs.at(-1)!, 0)} µs wall, ${fmtNum(mode.cpuUs.at(-1)!, 0)} µs CPU per request`);
    }
    setMode(true);

    // Rebuilds of the same log, the fresh copy in one mode or the other.
    const rebuilder = app.get(ProjectionRebuilder);
    const create = copies.create.bind(copies);
    let rebuildMode = true;
    copies.create = async (...a: unknown[]) => {
      const copy = await create(...a);
      const dbs = copies.databases();
      dbs[dbs.length - 1].db.pragma(`secure_delete = ${rebuildMode ? 'ON' : 'OFF'}`);
      return copy;
    };
    const rebuildSeconds: Record<'on' | 'off', number[]> = { on: [], off: [] };
    for (let r = 0; r < rebuilds * 2; r++) {
      rebuildMode = Math.floor((r + 1) / 2) % 2 === 0;
      const start = now();
      const result = await rebuilder.rebuild('all', () => undefined);
      rebuildSeconds[rebuildMode ? 'on' : 'off'].push((now() - start) / 1000);
      progress(`rebuild ${r + 1}/${rebuilds * 2} secure_delete ${rebuildMode ? 'ON ' : 'OFF'}: ${fmtNum(result.total, 0)} events in ${fmtNum(rebuildSeconds[rebuildMode ? 'on' : 'off'].at(-1)!, 2)} s`);
    }

    const line = (label: string, on: number, off: number, unit: string) =>
      process.stdout.write(`${label}: ON ${fmtNum(on, 1)} ${unit}, OFF ${fmtNum(off, 1)} ${unit}, ON/OFF ${fmtNum(on / off, 3)}\n`);
    process.stdout.write(`${slices} slices of ${perSlice} sends (+ a delete every ${deleteEvery}), ${subscribers} subscribers; medians per request\n`);
    line('wall', median(perMode.on.wallUs), median(perMode.off.wallUs), 'µs');
    line('CPU', median(perMode.on.cpuUs), median(perMode.off.cpuUs), 'µs');
    line(`rebuild (${rebuilds} each)`, median(rebuildSeconds.on), median(rebuildSeconds.off), 's');
  } finally {
    await app.close();
    dir.remove();
  }
}

runMain(main);
