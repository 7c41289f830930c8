/**
 * S1, crash safety of the whole server: the real entry point (apps/api/src/main.ts, embedded
 * SQLite stores) runs a sustained workload of message sends (channel and direct), star/unstar and
 * read flag changes, message edits and scheduled messages (each when the running build has the
 * endpoint) from several concurrent clients, and is killed with SIGKILL at a random moment, ten
 * times over, restarting on the same data directory each time. Then:
 *
 *   1. every acknowledged send is present exactly once, with its acknowledged id (an unacknowledged
 *      one at most once); every acknowledged scheduled message exactly once;
 *   2. each message's starred flag and content are those of its last acknowledged change (or of a
 *      later change whose answer the kill cut off);
 *   3. the read models of the crashed-and-restarted server equal, table by table and row by row,
 *      a rebuild from the event log (with its content keys) into an empty data directory.
 *
 *   npm run reliability:crash                  # 10 rounds, kills 1–4 s into each round
 *   npm run reliability:crash -- --rounds 3 --min-ms 300 --max-ms 1200 --keep
 *
 * Exit status 0 when every check holds; the summary is one JSON object on stdout.
 * Extension point: WORKLOAD below is a list of operations, each with a probe (is the endpoint in
 * this build?), a weight, a run step that records what was acknowledged, and checks in verify().
 */
import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

const ROOT = resolve(__dirname, '..', '..');
const REGISTER = join(ROOT, 'test', 'crash', 'register-swc.js');
const MAIN = join(ROOT, 'apps', 'api', 'src', 'main.ts');

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROUNDS = arg('rounds', 10);
const MIN_MS = arg('min-ms', 1000);
const MAX_MS = arg('max-ms', 4000);
const CLIENTS = arg('clients', 4);
const KEEP = process.argv.includes('--keep');
const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------- the server process

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

type Server = { child: ChildProcess; exited: Promise<{ code: number | null; signal: string | null }>; stderr: () => string };

function startServer(dataDir: string, port: number, extraEnv: Record<string, string> = {}): Server {
  const child = spawn(process.execPath, ['-r', REGISTER, MAIN], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development', DEV_BOOTSTRAP: 'true', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error',
      STORAGE_DRIVER: 'embedded', EVENT_STORE_DRIVER: 'embedded', READ_STORE_DRIVER: 'embedded',
      RATE_LIMIT_USER_REQUESTS: '0', RATE_LIMIT_IP_REQUESTS: '0', PASSWORD_HASH_COST: '4', ...extraEnv,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

async function waitHealthy(base: string, server: Server, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited during boot:\n${server.stderr()}`);
    try {
      const response = await fetch(`${base}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  // Not left running after the run gives up on it (it would outlive this process).
  server.child.kill('SIGKILL');
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${server.stderr()}`);
}

// ---------------------------------------------------------------- the HTTP client

type Creds = { email: string; apiKey: string };
let BASE = '';
const CREDS: Record<string, Creds> = {};

async function call(who: string | null, method: string, path: string, params: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const headers: Record<string, string> = {};
  if (who) headers.authorization = `Basic ${Buffer.from(`${CREDS[who].email}:${CREDS[who].apiKey}`).toString('base64')}`;
  const withQuery = method === 'GET' || method === 'DELETE';
  if (!withQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(`${BASE}${path}${withQuery && form.size ? `?${form}` : ''}`, { method, headers, body: withQuery ? undefined : form.toString() });
  return { status: response.status, body: await response.json().catch(() => ({})) };
}

/** The answer of a write that was acknowledged (HTTP 200, result success), else null. */
async function ack(who: string, method: string, path: string, params: Record<string, unknown>): Promise<any | null> {
  try {
    const { status, body } = await call(who, method, path, params);
    if (status === 200 && body.result === 'success') return body;
    if (status >= 500) stats.serverErrors++;
    return null;
  } catch {
    return null; // the connection died with the server: not acknowledged
  }
}

// ---------------------------------------------------------------- what was acknowledged

type Change<T> = { value: T; acked: boolean };
const stats = { rounds: 0, sends: 0, sendsAcked: 0, flagChanges: 0, flagChangesAcked: 0, edits: 0, editsAcked: 0, scheduled: 0, scheduledAcked: 0, serverErrors: 0, bootMs: [] as number[] };
const sends = new Map<string, { acked: boolean; id?: number }>();
const acknowledgedMessages: number[] = [];
const starred = new Map<number, Change<boolean>[]>();
const contents = new Map<number, Change<string>[]>();
const scheduled = new Map<string, { acked: boolean }>();
const busy = new Set<number>();
let channelId = 0;
let token = 0;
let features = { edits: false, scheduled: false };

const pickMessage = (): number | undefined => {
  for (let tries = 0; tries < 10 && acknowledgedMessages.length > 0; tries++) {
    const id = acknowledgedMessages[randomInt(0, acknowledgedMessages.length - 1)];
    if (!busy.has(id)) return id;
  }
  return undefined;
};

type Operation = { name: string; enabled: () => boolean; weight: number; run: (round: number) => Promise<void> };

const WORKLOAD: Operation[] = [
  {
    name: 'send',
    enabled: () => true,
    weight: 4,
    run: async (round) => {
      const marker = `crash-r${round}-t${++token}`;
      const who = token % 2 ? 'iago' : 'hamlet';
      const params = token % 5 === 0
        ? { type: 'direct', to: JSON.stringify([who === 'iago' ? CREDS.hamlet.email : CREDS.iago.email]), content: marker }
        : { type: 'stream', to: 'crash', topic: `topic ${token % 7}`, content: marker };
      const entry: { acked: boolean; id?: number } = { acked: false };
      sends.set(marker, entry);
      stats.sends++;
      const body = await ack(who, 'POST', '/api/v1/messages', params);
      if (body) {
        Object.assign(entry, { acked: true, id: body.id });
        stats.sendsAcked++;
        acknowledgedMessages.push(body.id);
        contents.set(body.id, [{ value: marker, acked: true }]);
      }
    },
  },
  {
    name: 'star / unstar',
    enabled: () => acknowledgedMessages.length > 0,
    weight: 3,
    run: async () => {
      const id = pickMessage();
      if (id === undefined) return;
      busy.add(id);
      const history = starred.get(id) ?? [];
      starred.set(id, history);
      const current = history.length > 0 ? history[history.length - 1].value : false;
      const change: Change<boolean> = { value: !current, acked: false };
      history.push(change);
      stats.flagChanges++;
      if (await ack('hamlet', 'POST', '/api/v1/messages/flags', { messages: JSON.stringify([id]), op: change.value ? 'add' : 'remove', flag: 'starred' })) {
        change.acked = true;
        stats.flagChangesAcked++;
      }
      busy.delete(id);
    },
  },
  {
    name: 'mark read',
    enabled: () => acknowledgedMessages.length > 0,
    weight: 1,
    run: async () => {
      const ids = Array.from({ length: 5 }, () => acknowledgedMessages[randomInt(0, acknowledgedMessages.length - 1)]);
      stats.flagChanges++;
      if (await ack('shiva', 'POST', '/api/v1/messages/flags', { messages: JSON.stringify(ids), op: 'add', flag: 'read' })) stats.flagChangesAcked++;
    },
  },
  {
    name: 'edit',
    enabled: () => features.edits && acknowledgedMessages.length > 0,
    weight: 2,
    run: async (round) => {
      const id = pickMessage();
      if (id === undefined) return;
      busy.add(id);
      const history = contents.get(id)!;
      const change: Change<string> = { value: `${history[0].value} edited-r${round}-t${++token}`, acked: false };
      history.push(change);
      stats.edits++;
      // The sender edits (iago sent odd tokens); the other's edit would be refused, never a 5xx.
      for (const who of ['iago', 'hamlet']) {
        const body = await ack(who, 'PATCH', `/api/v1/messages/${id}`, { content: change.value });
        if (body) {
          change.acked = true;
          stats.editsAcked++;
          break;
        }
      }
      busy.delete(id);
    },
  },
  {
    name: 'schedule',
    enabled: () => features.scheduled,
    weight: 1,
    run: async (round) => {
      const marker = `crash-scheduled-r${round}-t${++token}`;
      const entry = { acked: false };
      scheduled.set(marker, entry);
      stats.scheduled++;
      const at = Math.floor(Date.now() / 1000) + 30 * 24 * 3600; // far ahead: pending for the whole run
      if (await ack('hamlet', 'POST', '/api/v1/scheduled_messages', { type: 'stream', to: channelId, topic: 'later', content: marker, scheduled_delivery_timestamp: at })) {
        entry.acked = true;
        stats.scheduledAcked++;
      }
    },
  },
];

async function client(round: number, alive: () => boolean): Promise<void> {
  while (alive()) {
    const enabled = WORKLOAD.filter((o) => o.enabled());
    let roll = Math.random() * enabled.reduce((n, o) => n + o.weight, 0);
    const operation = enabled.find((o) => (roll -= o.weight) < 0) ?? enabled[0];
    await operation.run(round);
  }
}

// ---------------------------------------------------------------- checks

async function allMessages(who: string): Promise<any[]> {
  const messages: any[] = [];
  let anchor: string | number = 'oldest';
  for (;;) {
    const { body } = await call(who, 'GET', '/api/v1/messages', { anchor: String(anchor), num_before: 0, num_after: 1000, include_anchor: anchor === 'oldest', apply_markdown: false });
    if (body.result !== 'success') throw new Error(`GET /messages failed: ${JSON.stringify(body)}`);
    messages.push(...body.messages);
    if (body.found_newest || body.messages.length === 0) return messages;
    anchor = body.messages[body.messages.length - 1].id;
  }
}

function allowedFinal<T>(history: Change<T>[], initial: T): T[] {
  let last = -1;
  history.forEach((c, i) => c.acked && (last = i));
  const allowed = [last >= 0 ? history[last].value : initial];
  for (let i = last + 1; i < history.length; i++) allowed.push(history[i].value);
  return allowed;
}

async function verify(failures: string[]): Promise<void> {
  const messages = [...(await allMessages('iago')), ...(await allMessages('hamlet'))];
  const byId = new Map<number, any>();
  for (const m of messages) byId.set(m.id, m);
  const byMarker = new Map<string, number[]>();
  for (const m of byId.values()) {
    const marker = /crash-r\d+-t\d+/.exec(m.content)?.[0];
    if (marker) byMarker.set(marker, [...(byMarker.get(marker) ?? []), m.id]);
  }
  for (const [marker, entry] of sends) {
    const found = byMarker.get(marker) ?? [];
    if (entry.acked && (found.length !== 1 || found[0] !== entry.id)) failures.push(`acknowledged send ${marker} (id ${entry.id}) found ${found.length} times: ${found}`);
    if (!entry.acked && found.length > 1) failures.push(`unacknowledged send ${marker} found ${found.length} times`);
  }
  const hamletSees = new Map((await allMessages('hamlet')).map((m) => [m.id, m]));
  for (const [id, history] of starred) {
    const flags: string[] = hamletSees.get(id)?.flags ?? [];
    const allowed = allowedFinal(history, false);
    if (!allowed.includes(flags.includes('starred'))) failures.push(`message ${id}: starred=${flags.includes('starred')}, allowed ${allowed} after ${JSON.stringify(history)}`);
  }
  if (features.edits) {
    for (const [id, history] of contents) {
      const content = byId.get(id)?.content;
      const allowed = allowedFinal(history.slice(1), history[0].value);
      if (!allowed.includes(content)) failures.push(`message ${id}: content ${JSON.stringify(content)}, allowed ${JSON.stringify(allowed)}`);
    }
  }
  if (features.scheduled) {
    const { body } = await call('hamlet', 'GET', '/api/v1/scheduled_messages');
    const counts = new Map<string, number>();
    for (const s of body.scheduled_messages ?? []) counts.set(s.content, (counts.get(s.content) ?? 0) + 1);
    for (const [marker, entry] of scheduled) {
      const n = counts.get(marker) ?? 0;
      if (entry.acked && n !== 1) failures.push(`acknowledged scheduled message ${marker} found ${n} times`);
      if (!entry.acked && n > 1) failures.push(`unacknowledged scheduled message ${marker} found ${n} times`);
    }
  }
}

/**
 * Physical tables that are levels of one logical table: the user-message store keeps new rows in
 * an inbox (`um_inbox`, listed by `um_inbox_messages`) that compaction later moves into
 * `um_user_messages` and `um_unread` (read and unread rows), whenever the inbox is big enough. When that happened differs between a live
 * server and a rebuild, so they are compared as their union (what every query reads).
 */
const LEVELS: Record<string, string> = { um_inbox: 'um_user_messages', um_unread: 'um_user_messages', um_inbox_messages: '' };

/**
 * Not read models: the missed-message emails waiting for their batch (docs/email.md, "Missed
 * messages") depend on presence at the time, which the log does not hold; a rebuild has none.
 */
const NOT_PROJECTED = new Set(['rm_missed_message_emails']);

/**
 * The search index (FTS5 `um_search`, external content over `um_messages`) and its shadow tables:
 * their bytes depend on the order and batching of the inserts (segments, merges), not only on what
 * is indexed, so a live store and a rebuild differ there while answering every search alike. They
 * are compared by what they index instead: `um_messages` is compared row by row, and each store's
 * index must pass FTS5's integrity check against it (searchIndexConsistent).
 */
const isSearchIndexTable = (name: string) => name === 'um_search' || name.startsWith('um_search_');

/** FTS5's 'integrity-check' with rank 1: the index holds exactly the terms of its content table's rows. */
function searchIndexConsistent(dataDir: string, failures: string[], which: string): void {
  const db = new Database(join(dataDir, 'read-models.sqlite'));
  try {
    const exists = db.prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'um_search'").get();
    if (exists) db.exec("INSERT INTO um_search (um_search, rank) VALUES ('integrity-check', 1)");
  } catch (error) {
    failures.push(`search index of the ${which} store: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/** Every table of read-models.sqlite but the checkpoints, rows sorted: what a client can observe. */
function readModelTables(dataDir: string): Map<string, string[]> {
  const db = new Database(join(dataDir, 'read-models.sqlite'), { readonly: true });
  const tables = new Map<string, string[]>();
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'checkpoints' ORDER BY name").all() as { name: string }[];
    for (const { name } of names) {
      if (NOT_PROJECTED.has(name) || isSearchIndexTable(name)) continue;
      const logical = name in LEVELS ? LEVELS[name] : name;
      if (logical === '') continue;
      const rows = db.prepare(`SELECT * FROM "${name}"`).all().map((row) => JSON.stringify(row, Object.keys(row as object).sort()));
      tables.set(logical, [...(tables.get(logical) ?? []), ...rows].sort());
    }
  } finally {
    db.close();
  }
  return tables;
}

function compareReadModels(live: string, rebuilt: string, failures: string[]): number {
  searchIndexConsistent(live, failures, 'live');
  searchIndexConsistent(rebuilt, failures, 'rebuilt');
  const a = readModelTables(live);
  const b = readModelTables(rebuilt);
  let rows = 0;
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(name) ?? [];
    const y = new Set(b.get(name) ?? []);
    rows += x.length;
    const onlyLive = x.filter((row) => !y.has(row));
    const xs = new Set(x);
    const onlyRebuilt = [...y].filter((row) => !xs.has(row));
    if (onlyLive.length || onlyRebuilt.length) {
      failures.push(`read model ${name}: ${onlyLive.length} rows only in the live store, ${onlyRebuilt.length} only in the rebuild; e.g. live ${onlyLive[0]?.slice(0, 300)} / rebuilt ${onlyRebuilt[0]?.slice(0, 300)}`);
    }
  }
  return rows;
}

// ---------------------------------------------------------------- the run

async function stopGracefully(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  const { signal } = await server.exited;
  clearTimeout(timer);
  if (signal === 'SIGKILL') throw new Error('server did not stop on SIGTERM within 30 s');
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'crash-run-'));
  const rebuildDir = mkdtempSync(join(tmpdir(), 'crash-rebuild-'));
  const port = await freePort();
  BASE = `http://127.0.0.1:${port}`;
  const failures: string[] = [];
  const started = Date.now();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const boot = Date.now();
      const server = startServer(dataDir, port);
      await waitHealthy(BASE, server);
      stats.bootMs.push(Date.now() - boot);
      if (round === 1) await setUp();
      let alive = true;
      const clients = Array.from({ length: CLIENTS }, () => client(round, () => alive));
      const killAfter = randomInt(MIN_MS, MAX_MS);
      await sleep(killAfter);
      server.child.kill('SIGKILL');
      const exit = await server.exited;
      alive = false;
      await Promise.all(clients);
      stats.rounds++;
      log(`round ${round}: killed after ${killAfter} ms (${exit.signal}); so far ${stats.sendsAcked}/${stats.sends} sends, ${stats.flagChangesAcked}/${stats.flagChanges} flag changes, ${stats.editsAcked}/${stats.edits} edits, ${stats.scheduledAcked}/${stats.scheduled} scheduled acknowledged`);
    }
    // Restart once more, and check what clients see.
    const server = startServer(dataDir, port);
    await waitHealthy(BASE, server);
    await verify(failures);
    await stopGracefully(server);

    // Rebuild from the system of record alone: the event store file into an empty directory, read
    // models from zero. Message texts are sealed in the log (docs/security.md, "How erasure works"):
    // the content-key store and the key-encryption key that wraps its keys go with it.
    for (const file of ['events.sqlite', 'events.sqlite-wal', 'content-keys.sqlite', 'content-keys.sqlite-wal', 'credentials.key']) {
      if (existsSync(join(dataDir, file))) copyFileSync(join(dataDir, file), join(rebuildDir, file));
    }
    const rebuildPort = await freePort();
    const rebuilt = startServer(rebuildDir, rebuildPort, { DEV_BOOTSTRAP: 'false' });
    await waitHealthy(`http://127.0.0.1:${rebuildPort}`, rebuilt);
    await stopGracefully(rebuilt);
    const rows = compareReadModels(dataDir, rebuildDir, failures);
    const summary = { ...stats, bootMs: undefined, meanBootMs: Math.round(stats.bootMs.reduce((a, b) => a + b, 0) / stats.bootMs.length), readModelRowsCompared: rows, features, seconds: Math.round((Date.now() - started) / 100) / 10, failures: failures.length };
    console.log(JSON.stringify(summary, null, 2));
    for (const failure of failures.slice(0, 40)) console.log(`FAIL ${failure}`);
    if (stats.serverErrors > 0) console.log(`FAIL ${stats.serverErrors} responses were 5xx`);
    process.exitCode = failures.length === 0 && stats.serverErrors === 0 && stats.sendsAcked > 0 ? 0 : 1;
  } finally {
    if (KEEP) log(`data kept in ${dataDir} and ${rebuildDir}`);
    else for (const dir of [dataDir, rebuildDir]) rmSync(dir, { recursive: true, force: true });
  }
}

async function setUp(): Promise<void> {
  const { body } = await call(null, 'GET', '/api/v1/dev_list_users');
  const emails: string[] = [...body.direct_admins, ...body.direct_users].map((u: { email: string }) => u.email);
  for (const name of ['iago', 'hamlet', 'shiva']) {
    const email = emails.find((e) => e.startsWith(`${name}@`))!;
    const key = await call(null, 'POST', '/api/v1/dev_fetch_api_key', { username: email });
    CREDS[name] = { email, apiKey: key.body.api_key };
  }
  const created = await call('iago', 'POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'crash' }], principals: [CREDS.hamlet.email, CREDS.shiva.email] });
  if (created.body.result !== 'success') throw new Error(`could not create the channel: ${JSON.stringify(created.body)}`);
  channelId = (await call('iago', 'GET', '/api/v1/get_stream_id', { stream: 'crash' })).body.stream_id;
  // Which optional endpoints this build has: a missing route answers 404 or 405.
  const edit = await call('iago', 'PATCH', '/api/v1/messages/999999999', { content: 'x' });
  const schedule = await call('hamlet', 'GET', '/api/v1/scheduled_messages');
  features = { edits: edit.status !== 404 && edit.status !== 405, scheduled: schedule.status === 200 };
  log(`set up: channel ${channelId}; edits ${features.edits ? 'on' : 'off (no PATCH /messages/{id})'}, scheduled messages ${features.scheduled ? 'on' : 'off'}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
