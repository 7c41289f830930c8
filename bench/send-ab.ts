/**
 * Issue 23: server CPU per `POST /messages` of several builds, measured side by side. One
 * application server per build (each build's own dist/bench/server-process.js and embedded stores
 * in a temp directory, the organization of request-cost's `send`), all running at once; the load
 * (request-cost's send, 16 keep-alive connections) goes to each in turn for `--seconds`, `--slices`
 * times, the order reversed every other slice. Slices of different builds that follow each other
 * share the machine's load of that moment, so the paired differences to the first build are less
 * noisy than separate runs on a shared machine (they stay noisy: ±15 µs a slice is usual here).
 * Prints nothing to docs/benchmarks.md.
 *
 *   node dist/bench/send-ab.js --builds /work/main,/path/to/other [--slices 16] [--seconds 3] [--warmup 5] [--subscribers 50]
 *
 * Each build is a checkout whose `dist` was built (`npm run build`) and which resolves node_modules.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { LoadOptions, LoadResult } from './load-generator';
import { runLoad } from './load-generator';
import type { ChildOptions, ServerProcess } from './server-process';
import { intArg, parseArgs, progress, runMain, stringArg, tempDir } from './support';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

async function main() {
  const args = parseArgs();
  const builds = stringArg(args, 'builds', '').split(',').filter(Boolean).map((b) => resolve(b));
  if (builds.length < 2) throw new Error('--builds takes two or more checkouts with a built dist, separated by commas');
  const slices = Math.max(1, intArg(args, 'slices', 16));
  const seconds = Math.max(1, intArg(args, 'seconds', 3));
  const warmupMs = intArg(args, 'warmup', 5) * 1000;
  const subscribers = intArg(args, 'subscribers', 50);
  const body = new URLSearchParams({ type: 'stream', to: 'crowd', topic: 'load', content: 'A message under **sustained** load, with a [link](https://example.com).' }).toString();
  const servers: { label: string; server: ServerProcess; dir: { remove(): void }; cpu: number[] }[] = [];
  try {
    for (const [i, build] of builds.entries()) {
      const { startServerProcess } = (await import(join(build, 'dist', 'bench', 'server-process.js'))) as { startServerProcess(o: ChildOptions): Promise<ServerProcess> };
      const dir = tempDir('send-ab');
      const server = await startServerProcess({ mode: 'app', nodeEnv: 'production', logLevel: 'silent', dataDir: dir.path, setup: { kind: 'organization', subscribers } });
      servers.push({ label: `${i + 1}:${basename(build)}`, server, dir, cpu: [] });
    }
    const load = (server: ServerProcess, durationMs: number): Promise<LoadResult> => {
      const options: LoadOptions = {
        host: '127.0.0.1', port: server.port, path: '/api/v1/messages', client: 'raw', method: 'POST', body, connections: 16, maxRequests: 0, durationMs, warmupMs: 0,
        headers: { Authorization: server.auth ?? '', 'Content-Type': 'application/x-www-form-urlencoded' },
      };
      return runLoad(options);
    };
    for (const s of servers) await load(s.server, warmupMs);
    for (let slice = 0; slice < slices; slice++) {
      for (const s of slice % 2 ? [...servers].reverse() : servers) {
        const before = await s.server.usage();
        const r = await load(s.server, seconds * 1000);
        const after = await s.server.usage();
        if (r.errors > 0 || r.non2xx > 0) progress(`${s.label}: ${r.errors} errors, ${r.non2xx} non-2xx responses`);
        s.cpu.push((after.cpuUs - before.cpuUs) / Math.max(1, r.requests));
      }
      const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      console.log(`slice ${slice + 1} (load ${loadAverage}): ${servers.map((s) => `${s.label} ${s.cpu[slice].toFixed(1)} µs`).join(', ')}`);
    }
    for (const s of servers) console.log(`${s.label}: median ${median(s.cpu).toFixed(1)} µs, mean ${mean(s.cpu).toFixed(1)} µs CPU a send`);
    for (const s of servers.slice(1)) {
      const d = s.cpu.map((v, i) => v - servers[0].cpu[i]);
      console.log(`${s.label} - ${servers[0].label}: paired median ${median(d).toFixed(1)} µs, mean ${mean(d).toFixed(1)} µs`);
    }
  } finally {
    for (const s of servers) {
      await s.server.stop();
      s.dir.remove();
    }
  }
}

runMain(main);
