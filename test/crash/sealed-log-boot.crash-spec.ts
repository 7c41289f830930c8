/**
 * Issue 35, the process side of test/api/sealed-log-boot.api-spec.ts: the real entry points
 * (apps/api/src/main.ts, apps/worker/src/main.ts) on a data directory whose events.sqlite was
 * restored without its content-keys.sqlite exit on their own with code 78 (EX_CONFIG), the
 * reason logged at `fatal` (at LOG_LEVEL=error too) and printed on stderr, instead of hanging in a
 * replay that never ends with nothing printed (docs/deployment.md, "The event log cannot be opened").
 */
import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { openSqlite } from '@app/infrastructure';
import { makeTempDir, personaHelpers } from '@app/testing';
import { ApiTestClient } from '../support';

jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '..', '..');
const REGISTER = join(__dirname, 'register-swc.js');
/** Compiling the application on load (swc) included; a hang never ends. */
const EXIT_BOUND_MS = 90_000;

type Run = { code: number | null; signal: string | null; stdout: string; stderr: string; ms: number };

/** The entry point started on the data directory: its output so far, and its end (killed after EXIT_BOUND_MS + `extraMs`). */
function start(main: string, dataDir: string, options: { logLevel?: string; extraMs?: number } = {}): { output: () => string; done: Promise<Run> } {
  const started = Date.now();
  const child = spawn(process.execPath, ['-r', REGISTER, join(ROOT, main)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: options.logLevel ?? 'error', LOG_FORMAT: 'json',
      STORAGE_DRIVER: 'embedded', EVENT_STORE_DRIVER: 'embedded', READ_STORE_DRIVER: 'embedded', METRICS_PORT: '0', WORKER_METRICS_PORT: '0',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_BOUND_MS + (options.extraMs ?? 0));
  return {
    output: () => stdout,
    done: new Promise((r) =>
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        r({ code, signal, stdout, stderr, ms: Date.now() - started });
      }),
    ),
  };
}

const run = (main: string, dataDir: string): Promise<Run> => start(main, dataDir).done;

const fatalLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string })
    .filter((entry) => entry.level === 60);

describe('the server started on events.sqlite without its content-keys.sqlite', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));

  it('exits 78 on its own, the file to restore logged at fatal and on stderr (API and worker)', async () => {
    // A data directory with sealed messages; events.sqlite and credentials.key copied to a fresh one.
    const api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'] });
    const { send, id } = personaHelpers(() => api);
    await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'zq-process-boot-sirius' });
    const source = api.app.get<AppConfig>(APP_CONFIG).dataDir;
    const restored = () => {
      const dir = makeTempDir('sealed-log-process-');
      dirs.push(dir);
      const db = openSqlite(join(source, 'events.sqlite'));
      db.exec(`VACUUM INTO '${join(dir.path, 'events.sqlite')}'`);
      db.close();
      copyFileSync(join(source, 'credentials.key'), join(dir.path, 'credentials.key'));
      return dir.path;
    };
    const dataDirs = [restored(), restored()];
    await api.close();

    const [server, worker] = await Promise.all([run('apps/api/src/main.ts', dataDirs[0]), run('apps/worker/src/main.ts', dataDirs[1])]);
    for (const [name, result] of [['api', server], ['worker', worker]] as const) {
      const context = `${name} (exit ${result.code}, signal ${result.signal}, ${result.ms} ms):\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`;
      expect({ name, code: result.code, signal: result.signal, context }).toMatchObject({ name, code: 78, signal: null });
      const fatal = fatalLines(result.stdout);
      expect(fatal.map((e) => e.msg)).toContainEqual(expect.stringMatching(/^refusing to start: the event log was sealed with keys that are not in DATA_DIR\/content-keys\.sqlite .*restore content-keys\.sqlite and credentials\.key \(or CREDENTIALS_KEY\) from the same backup as events\.sqlite \(docs\/deployment\.md/));
      expect(result.stderr).toContain('fatal: refusing to start: the event log was sealed with keys that are not in DATA_DIR/content-keys.sqlite');
      // The reason, not a stack: an operator reads it.
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a running server exits 78 too when a sealed event it has no key for reaches its projector (another process appended it)', async () => {
    const dir = makeTempDir('sealed-log-running-');
    dirs.push(dir);
    const server = start('apps/api/src/main.ts', dir.path, { logLevel: 'info', extraMs: 60_000 });
    // Started: the development organization is there and the server listens.
    const began = Date.now();
    while (!server.output().includes('"msg":"server listening"') && Date.now() - began < EXIT_BOUND_MS) await new Promise((r) => setTimeout(r, 200));
    expect(server.output()).toContain('"msg":"server listening"');
    // Another process appends a reaction sealed under a key id no content-key store has.
    const db = openSqlite(join(dir.path, 'events.sqlite'));
    const { position } = db.prepare('SELECT max(position) AS position FROM events').get() as { position: number };
    const data = { realmId: 1, messageId: 1, userId: 1, emojiName: { $sealed: 'not-a-key' }, emojiCode: { $sealed: 'not-a-key' }, reactionType: 'unicode_emoji', historical: false, at: new Date().toISOString(), $sealed: { 'not-a-key': 'v1:AAAA' } };
    db.prepare('INSERT INTO events (position, event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      position + 1, 'b7e1c0de-0000-4000-8000-000000000001', 'reactions-from-elsewhere', 0, 'ReactionAdded', JSON.stringify(data), JSON.stringify({ schemaVersion: 1 }), new Date().toISOString(),
    );
    db.close();
    const result = await server.done;
    const context = `exit ${result.code}, signal ${result.signal}, ${result.ms} ms:\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`;
    expect({ code: result.code, signal: result.signal, context }).toMatchObject({ code: 78, signal: null });
    expect(fatalLines(result.stdout).map((e) => e.msg)).toContainEqual(expect.stringMatching(/^stopping: the event log was sealed with keys that are not in DATA_DIR\/content-keys\.sqlite/));
    expect(result.stderr).toContain('fatal: stopping: the event log was sealed with keys that are not in DATA_DIR/content-keys.sqlite');
  });
});
