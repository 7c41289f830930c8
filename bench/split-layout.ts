/**
 * The split layout (issue 19, docs/deployment.md) against the single process, on the embedded set,
 * every server a child process of the built dist (run `npm run build` first):
 *
 * - read-your-writes: POST /messages one at a time, the single process vs one API process beside
 *   the worker (the API waits for the worker's checkpoints, woken by SQLite's data_version through
 *   a file watch): the p50 difference is what the layout adds;
 * - throughput: sends, and GET /messages, with CONCURRENCY requests in flight for SECONDS, against
 *   the single process, 1 API + worker, 2 API + worker (requests alternate between the APIs);
 *   req/s and the CPU time of every server process (utime + stime from /proc) per request.
 *
 *   node -r ./test/crash/register-swc.js bench/split-layout.ts [--seconds 8] [--concurrency 8] [--sends 300]
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { intArg, machineInfo, now, parseArgs, percentile, progress, tempDir } from './support';
import { type LayoutServer, startServerLayout, stopServers } from './server-layout';

const args = parseArgs();
const SECONDS = intArg(args, 'seconds', 8);
const CONCURRENCY = intArg(args, 'concurrency', 8);
const SENDS = intArg(args, 'sends', 300);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const CLK_TCK = 100;


function request(port: number, method: string, path: string, auth?: string, body?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, agent, headers: { ...(auth ? { authorization: `Basic ${auth}` } : {}), ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: any = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

async function waitReady(port: number): Promise<string> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const r = await request(port, 'POST', '/api/v1/dev_fetch_api_key', undefined, 'username=hamlet%40zulip.com');
      if (r.status === 200) return Buffer.from(`hamlet@zulip.com:${r.body.api_key}`).toString('base64');
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server on ${port} not ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
};

type Layout = { name: string; servers: LayoutServer[]; apiPorts: number[]; auth: string; streamId: number; dir: { remove(): void } };

let nextPort = 19_400 + Math.floor(Math.random() * 500);
async function startLayout(name: string, apis: number | 'single'): Promise<Layout> {
  const dir = tempDir('split');
  let auth = '';
  const { servers, apiPorts } = await startServerLayout({
    dataDir: dir.path, apis, nextPort: () => nextPort++, waitReady: async (port) => (auth = await waitReady(port)),
  });
  const subs = await request(apiPorts[0], 'GET', '/api/v1/users/me/subscriptions', auth);
  const streamId = subs.body.subscriptions.find((s: { name: string }) => s.name === 'general').stream_id as number;
  return { name, servers, apiPorts, auth, streamId, dir };
}

async function stopLayout(layout: Layout): Promise<void> {
  await stopServers(layout.servers);
  layout.dir.remove();
}

let sendCounter = 0;
const sendBody = (streamId: number) => `type=stream&to=${streamId}&topic=bench&content=message+${++sendCounter}`;

async function send(layout: Layout, port: number): Promise<void> {
  const r = await request(port, 'POST', '/api/v1/messages', layout.auth, sendBody(layout.streamId));
  if (r.status !== 200) throw new Error(`send answered ${r.status}: ${JSON.stringify(r.body)}`);
}

async function fetchMessages(layout: Layout, port: number): Promise<void> {
  const r = await request(port, 'GET', '/api/v1/messages?anchor=newest&num_before=20&num_after=0', layout.auth);
  if (r.status !== 200) throw new Error(`GET /messages answered ${r.status}`);
}

/** Sequential sends: latency samples (ms). */
async function sendLatencies(layout: Layout, count: number): Promise<number[]> {
  for (let i = 0; i < 20; i++) await send(layout, layout.apiPorts[0]);
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = now();
    await send(layout, layout.apiPorts[i % layout.apiPorts.length]);
    samples.push(now() - started);
  }
  return samples.sort((a, b) => a - b);
}

/** CONCURRENCY loops for SECONDS, alternating between the API ports: req/s and CPU ms per request. */
async function load(layout: Layout, op: (layout: Layout, port: number) => Promise<void>): Promise<{ rps: number; cpuPerRequestMs: number; requests: number }> {
  const pids = layout.servers.map((s) => s.child.pid!);
  const cpuBefore = pids.map(cpuMs);
  const started = now();
  const deadline = started + SECONDS * 1000;
  let requests = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      let i = worker;
      while (now() < deadline) {
        await op(layout, layout.apiPorts[i++ % layout.apiPorts.length]);
        requests++;
      }
    }),
  );
  const elapsed = (now() - started) / 1000;
  const cpu = pids.map(cpuMs).reduce((sum, v, i) => sum + v - cpuBefore[i], 0);
  return { rps: requests / elapsed, cpuPerRequestMs: cpu / requests, requests };
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function main(): Promise<void> {
  const started = new Date();
  const rows: string[] = [];
  const latency: Record<string, number[]> = {};
  for (const [name, apis] of [
    ['single process', 'single'],
    ['1 API + worker', 1],
    ['2 API + worker', 2],
  ] as const) {
    progress(`starting ${name}`);
    const layout = await startLayout(name, apis);
    try {
      if (apis !== 2) {
        progress(`${name}: ${SENDS} sequential sends`);
        latency[name] = await sendLatencies(layout, SENDS);
      }
      progress(`${name}: sends under load`);
      const sends = await load(layout, send);
      progress(`${name}: GET /messages under load`);
      const reads = await load(layout, fetchMessages);
      rows.push(`| ${name} | ${fmt(sends.rps, 0)} | ${fmt(sends.cpuPerRequestMs, 2)} | ${fmt(reads.rps, 0)} | ${fmt(reads.cpuPerRequestMs, 2)} |`);
    } finally {
      await stopLayout(layout);
    }
  }
  const single = latency['single process'];
  const split = latency['1 API + worker'];
  const p = (s: number[], q: number) => percentile(s, q);
  const added = p(split, 50) - p(single, 50);
  const machine = machineInfo() as Record<string, unknown>;
  const out = [
    `Run ${started.toISOString()}, \`node -r ./test/crash/register-swc.js bench/split-layout.ts${process.argv.slice(2).length ? ' ' + process.argv.slice(2).join(' ') : ''}\`; ${JSON.stringify(machine)}; load average at the end ${loadavg().map((l) => l.toFixed(1)).join(', ')}.`,
    '',
    '| POST /messages one at a time | p50 | p95 | max |',
    '| --- | ---: | ---: | ---: |',
    `| single process | ${fmt(p(single, 50), 2)} ms | ${fmt(p(single, 95), 2)} ms | ${fmt(single.at(-1)!, 1)} ms |`,
    `| 1 API + worker (waits for the worker's checkpoints) | ${fmt(p(split, 50), 2)} ms | ${fmt(p(split, 95), 2)} ms | ${fmt(split.at(-1)!, 1)} ms |`,
    '',
    `Read-your-writes wait added by the split layout: p50 ${fmt(added, 2)} ms (target ≤ 5 ms: **${added <= 5 ? 'met' : 'not met'}**).`,
    '',
    `| layout (${CONCURRENCY} requests in flight, ${SECONDS} s each) | sends req/s | CPU ms per send | GET /messages req/s | CPU ms per GET |`,
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ];
  process.stdout.write(out.join('\n') + '\n');
  agent.destroy();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
