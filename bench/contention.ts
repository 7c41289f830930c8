/**
 * Issue 38: N concurrent writers (N = 1, 4, 16, 64) of each contended operation, in one process
 * and in the split layout (a worker and two API processes on one DATA_DIR, writers alternating
 * between the APIs), every server a child process of the built dist (embedded set, a fresh
 * development organization). For each layout, operation and N: requests, requests per second,
 * p50 and p99 latency, and the count of answers other than 200 (with their codes).
 *
 * Targets: no answer other than 200 at any N, and throughput at N = 16 no lower than at N = 1.
 *
 * The operations, each a stream that many writers share (docs/consistency-boundaries.md):
 *   rename          each writer (its own user) changes its own full name      users-<realm>
 *   channel-create  each writer creates a new channel                         channels-<realm>
 *   user-create     an administrator's writers create new users               users-<realm>
 *   group-create    administrators' writers create new user groups            user_groups-<realm>
 *   group-members   each writer adds or removes its user to/from one group    user_groups-<realm>
 *   realm-settings  administrators' writers change the organization's description  realm-<realm>
 *   subscriptions   each writer joins or leaves one channel                   subscriptions-<channel>
 *   topic-edits     each writer edits its own message of one topic            message-<id> (one each)
 *   reactions       each writer adds or removes its reaction to one message   message_reactions-<id>
 *
 *   npm run build && node dist/bench/contention.js [--seconds 2] [--rounds 1] [--writers 1,4,16,64] [--ops rename,reactions] [--layouts single,split]
 *   (or node -r ./test/crash/register-swc.js bench/contention.ts …; the servers run from dist either way)
 *
 * Users are created with PASSWORD_HASH_COST=4 (bcrypt in JS blocks the event loop; at the default
 * cost 12 user creation would measure bcrypt) and rate limits off (RATE_LIMIT_*_REQUESTS=0).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { type BenchResult, commandLine, emitResult, intArg, machineInfo, now, parseArgs, percentile, progress, type ResultRow, runMain, stringArg, tempDir } from './support';
import { type LayoutServer, startServerLayout, stopServers } from './server-layout';

/** The repository: this file runs from dist/bench (npm run build) or from bench/ (register-swc). */
const args = parseArgs();
const SECONDS = intArg(args, 'seconds', 2);
const WRITERS = String(stringArg(args, 'writers', '1,4,16,64')).split(',').map(Number);
const OPS_ARG = stringArg(args, 'ops', 'all');
const LAYOUTS = String(stringArg(args, 'layouts', 'single,split')).split(',') as ('single' | 'split')[];
const MAX_WRITERS = Math.max(...WRITERS);
/** The N sequence is run this many times per operation, interleaved and alternately reversed (1,4,16,64,64,16,4,1,…), so that drift on a shared machine, and the organization's growth, hit every N alike. */
const ROUNDS = intArg(args, 'rounds', 1);
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

type Answer = { status: number; body: any };
type Client = { port: number; auth: string };

// A fresh pool for every cell: a socket left idle by the cell before may be closing on the server's
// keep-alive timeout (5 s) just as the next cell reuses it ("socket hang up").
let agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function request(client: Client, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, params: Record<string, string> = {}): Promise<Answer> {
  const form = new URLSearchParams(params).toString();
  const inQuery = method === 'GET' || method === 'DELETE';
  const url = inQuery && form ? `${path}?${form}` : path;
  const headers: Record<string, string | number> = client.auth ? { authorization: `Basic ${client.auth}` } : {};
  if (!inQuery) Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: client.port, method, path: url, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    if (!inQuery) req.write(form);
    req.end();
  });
}

async function ok(client: Client, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, params: Record<string, string> = {}): Promise<any> {
  const r = await request(client, method, path, params);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

async function devKey(port: number, email: string): Promise<string> {
  const r = await request({ port, auth: '' }, 'POST', '/api/v1/dev_fetch_api_key', { username: email });
  if (r.status !== 200) throw new Error(`dev_fetch_api_key ${email}: ${r.status}`);
  return Buffer.from(`${email}:${r.body.api_key}`).toString('base64');
}

async function waitReady(port: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await devKey(port, 'iago@zulip.com');
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`server on ${port} not ready`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** A running layout: its API ports, and per writer slot a user (with a client on each API). */
type Layout = {
  name: string;
  servers: LayoutServer[];
  ports: number[];
  dir: { remove(): void };
  /** The administrator on each API port. */
  admin: Client[];
  /** Writer w's user: its id and a client on each API port. */
  users: { userId: number; on: Client[] }[];
};

let nextPort = 19_900 + Math.floor(Math.random() * 400);

async function startLayout(kind: 'single' | 'split'): Promise<Layout> {
  const dir = tempDir('contention');
  const { servers, apiPorts: ports } = await startServerLayout({
    dataDir: dir.path, apis: kind === 'single' ? 'single' : 2, nextPort: () => nextPort++, waitReady, env: { PASSWORD_HASH_COST: '4' },
  });
  const adminAuth = await devKey(ports[0], 'iago@zulip.com');
  const admin = ports.map((port) => ({ port, auth: adminAuth }));
  progress(`${kind}: creating ${MAX_WRITERS} writers' users`);
  const users: Layout['users'] = [];
  for (let w = 0; w < MAX_WRITERS; w++) {
    const email = `writer${w}@zulip.com`;
    const { user_id } = await ok(admin[0], 'POST', '/api/v1/users', { email, password: `writer-${w}-password`, full_name: `Writer ${w}` });
    const auth = await devKey(ports[0], email);
    users.push({ userId: user_id, on: ports.map((port) => ({ port, auth })) });
  }
  return { name: kind, servers, ports, dir, admin, users };
}

async function stopLayout(layout: Layout): Promise<void> {
  await stopServers(layout.servers);
  layout.dir.remove();
}

/**
 * Whether writer w's last toggle (a reaction, a membership, a subscription) left it on: kept across
 * the runs of one layout, since a run ends after whichever step its writer was at.
 */
const toggle = (ctx: Record<string, number>, w: number): boolean => {
  const on = ctx[`on${w}`] === 1;
  ctx[`on${w}`] = on ? 0 : 1;
  return !on;
};

/** One operation: `prepare` once per layout (shared targets), then `step(writer, iteration, port index)`. */
type Op = {
  name: string;
  stream: string;
  prepare?: (layout: Layout) => Promise<Record<string, number>>;
  step: (layout: Layout, ctx: Record<string, number>, w: number, i: number, p: number, tag: string) => Promise<Answer>;
};

const OPS: Op[] = [
  {
    name: 'rename',
    stream: 'users-<realm>',
    step: (l, _c, w, i, p, tag) => request(l.users[w].on[p], 'PATCH', '/api/v1/settings', { full_name: `Writer ${w} ${tag} ${i}` }),
  },
  {
    name: 'channel-create',
    stream: 'channels-<realm>',
    step: (l, _c, w, i, p, tag) => request(l.users[w].on[p], 'POST', '/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: `c ${tag} ${w} ${i}` }]) }),
  },
  {
    name: 'user-create',
    stream: 'users-<realm>',
    step: (l, _c, w, i, p, tag) => request(l.admin[p], 'POST', '/api/v1/users', { email: `u-${tag}-${w}-${i}@zulip.com`, password: 'bench-password', full_name: `U ${tag} ${w} ${i}` }),
  },
  {
    name: 'group-create',
    stream: 'user_groups-<realm>',
    step: (l, _c, w, i, p, tag) => request(l.admin[p], 'POST', '/api/v1/user_groups/create', { name: `g ${tag} ${w} ${i}`, description: '', members: '[]' }),
  },
  {
    name: 'group-members',
    stream: 'user_groups-<realm>',
    prepare: async (l) => {
      const { group_id } = await ok(l.admin[0], 'POST', '/api/v1/user_groups/create', { name: 'contended group', description: '', members: '[]' });
      return { groupId: group_id };
    },
    step: (l, c, w, _i, p) => request(l.admin[p], 'POST', `/api/v1/user_groups/${c.groupId}/members`, toggle(c, w) ? { add: `[${l.users[w].userId}]` } : { delete: `[${l.users[w].userId}]` }),
  },
  {
    name: 'realm-settings',
    stream: 'realm-<realm>',
    step: (l, _c, w, i, p, tag) => request(l.admin[p], 'PATCH', '/api/v1/realm', { description: `described by ${tag} ${w} ${i}` }),
  },
  {
    name: 'subscriptions',
    stream: 'subscriptions-<channel>',
    prepare: async (l) => {
      await ok(l.admin[0], 'POST', '/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'contended channel' }]) });
      return {};
    },
    step: (l, c, w, _i, p) =>
      toggle(c, w)
        ? request(l.users[w].on[p], 'POST', '/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'contended channel' }]) })
        : request(l.users[w].on[p], 'DELETE', '/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify(['contended channel']) }),
  },
  {
    name: 'topic-edits',
    stream: 'message-<id> (one each)',
    prepare: async (l) => {
      await ok(l.admin[0], 'POST', '/api/v1/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name: 'edited channel' }]),
        principals: JSON.stringify(l.users.map((u) => u.userId)),
      });
      const ctx: Record<string, number> = {};
      for (const [w, u] of l.users.entries()) {
        ctx[`m${w}`] = (await ok(u.on[0], 'POST', '/api/v1/messages', { type: 'stream', to: 'edited channel', topic: 'one topic', content: `from writer ${w}` })).id;
      }
      return ctx;
    },
    step: (l, c, w, i, p, tag) => request(l.users[w].on[p], 'PATCH', `/api/v1/messages/${c[`m${w}`]}`, { content: `edit ${tag} ${i}` }),
  },
  {
    name: 'reactions',
    stream: 'message_reactions-<id>',
    prepare: async (l) => {
      const { id } = await ok(l.admin[0], 'POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'react here', content: 'react to me' });
      return { messageId: id };
    },
    step: (l, c, w, _i, p) => request(l.users[w].on[p], toggle(c, w) ? 'POST' : 'DELETE', `/api/v1/messages/${c.messageId}/reactions`, { emoji_name: 'thumbs_up' }),
  },
];

type Measured = {
  layout: string; op: string; writers: number; requests: number; rps: number; p50: number; p99: number; failures: number; codes: string;
  /** Seconds the cell ran, and the servers' CPU time in it (every process of the layout). */
  elapsed: number; cpuMs: number;
};

/** User plus system CPU time of the layout's server processes so far, in ms (Linux /proc; 0 elsewhere). */
function serversCpuMs(layout: Layout): number {
  let ticks = 0;
  for (const server of layout.servers) {
    try {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  }
  return (ticks * 1000) / USER_HZ;
}

/** N writers, each in a loop for SECONDS, writer w on API port w % ports. */
let runs = 0;
async function measure(layout: Layout, op: Op, ctx: Record<string, number>, writers: number): Promise<Measured> {
  // Unique per run: the names and emails a creation takes are new in every run.
  const tag = `${op.name}-${writers}-${++runs}`;
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const cpuBefore = serversCpuMs(layout);
  const started = now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const p = w % layout.ports.length;
      for (let i = 0; now() < deadline; i++) {
        const t = now();
        const r = await op.step(layout, ctx, w, i, p, tag);
        latencies.push(now() - t);
        if (r.status !== 200) {
          const key = `${r.status} ${r.body?.code ?? ''}`.trim();
          failures.set(key, (failures.get(key) ?? 0) + 1);
          if (failures.get(key) === 1) progress(`  ${op.name} N=${writers}: ${key} ${JSON.stringify(r.body).slice(0, 200)}`);
        }
      }
    }),
  );
  const elapsed = (now() - started) / 1000;
  const cpuMs = serversCpuMs(layout) - cpuBefore;
  latencies.sort((a, b) => a - b);
  const failed = [...failures.values()].reduce((a, b) => a + b, 0);
  return {
    layout: layout.name, op: op.name, writers, requests: latencies.length, rps: latencies.length / elapsed,
    p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures: failed,
    codes: [...failures.entries()].map(([k, v]) => `${k} ×${v}`).join(', '),
    elapsed, cpuMs,
  };
}

async function main(): Promise<void> {
  const began = now();
  const ops = OPS_ARG === 'all' ? OPS : OPS.filter((o) => String(OPS_ARG).split(',').includes(o.name));
  const results: Measured[] = [];
  const load: number[] = [];
  for (const kind of LAYOUTS) {
    progress(`starting ${kind}`);
    const layout = await startLayout(kind);
    try {
      for (const op of ops) {
        const ctx = (await op.prepare?.(layout)) ?? {};
        // Odd rounds run the N sequence backwards (1,4,16,64 then 64,16,4,1): a creation makes every
        // later one read a little more, so a fixed order would always give the larger N the larger organization.
        for (const writers of Array.from({ length: ROUNDS }, (_, r) => (r % 2 === 0 ? WRITERS : [...WRITERS].reverse())).flat()) {
          load.push(loadavg()[0]);
          const m = await measure(layout, op, ctx, writers);
          progress(`${kind} ${op.name} N=${writers}: ${m.requests} requests, ${m.rps.toFixed(0)}/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, CPU ${(m.cpuMs / m.requests).toFixed(2)} ms/request, non-200 ${m.failures}`);
          results.push(m);
        }
      }
    } finally {
      await stopLayout(layout);
    }
  }

  const rows: ResultRow[] = results.map((m) => ({
    metric: `${m.layout}, ${m.op}, N=${m.writers}`,
    value: m.rps,
    unit: 'req/s',
    detail: `${m.requests} requests, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, servers' CPU ${(m.cpuMs / m.requests).toFixed(2)} ms/request, non-200 ${m.failures}${m.codes ? ` (${m.codes})` : ''}`,
  }));
  const nonOk = results.reduce((a, m) => a + m.failures, 0);
  // Every round of one (layout, operation, N) together: requests over seconds, CPU over requests.
  const cell = (kind: string, op: string, writers: number) => {
    const ms = results.filter((m) => m.layout === kind && m.op === op && m.writers === writers);
    if (ms.length === 0) return undefined;
    const requests = ms.reduce((a, m) => a + m.requests, 0);
    return { rps: requests / ms.reduce((a, m) => a + m.elapsed, 0), cpuPerRequest: ms.reduce((a, m) => a + m.cpuMs, 0) / requests };
  };
  const scaling = LAYOUTS.flatMap((kind) =>
    ops.map((op) => {
      const one = cell(kind, op.name, 1);
      const sixteen = cell(kind, op.name, 16);
      // Judged only where both were measured: a run without N=1 or N=16 says nothing of it.
      return one && sixteen ? [{ kind, op: op.name, met: sixteen.rps >= one.rps, one, sixteen }] : [];
    }),
  ).flat();
  const result: BenchResult = {
    name: 'contention',
    title: 'Contended writes (issue 38): N concurrent writers per operation',
    command: commandLine(),
    params: { seconds: SECONDS, rounds: ROUNDS, writers: WRITERS.join(','), ops: ops.map((o) => o.name).join(','), layouts: LAYOUTS.join(',') },
    rows,
    notes: [
      `machine: ${machineInfo().cpu}, ${machineInfo().cores} cores, shared with other engineers' jobs; load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} during the runs`,
      ...ops.map((o) => `${o.name}: ${o.stream}`),
    ],
    targets: [
      { description: 'no answer other than 200 at any N, both layouts', met: nonOk === 0 },
      ...scaling.map((s) => ({
        description: `${s.kind} ${s.op}: throughput at N=16 ≥ at N=1 (${s.sixteen.rps.toFixed(0)} vs ${s.one.rps.toFixed(0)} req/s over ${ROUNDS} round(s); servers' CPU per request ${s.sixteen.cpuPerRequest.toFixed(2)} vs ${s.one.cpuPerRequest.toFixed(2)} ms)`,
        met: s.met,
      })),
    ],
    durationMs: now() - began,
  };
  emitResult(args, result);
  process.stdout.write('\n| layout | operation | N | requests | req/s | p50 ms | p99 ms | servers\' CPU ms/request | non-200 |\n|---|---|---|---|---|---|---|---|---|\n');
  for (const m of results) {
    process.stdout.write(`| ${m.layout} | ${m.op} | ${m.writers} | ${m.requests} | ${m.rps.toFixed(0)} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | ${(m.cpuMs / m.requests).toFixed(2)} | ${m.failures}${m.codes ? ` (${m.codes})` : ''} |\n`);
  }
  for (const t of result.targets!) process.stdout.write(`${t.met ? 'met    ' : 'NOT MET'}  ${t.description}\n`);
}

runMain(main);
