/**
 * A server under measurement in a child process of its own, so that its CPU time and resident
 * memory are its own (not the load generator's): `process.cpuUsage()` and `memoryUsage().rss` of
 * the child, asked for over the IPC channel between loads.
 *
 * The child is bench/server-child.ts; it starts one of
 * - `bare`: a node:http server answering a JSON hello,
 * - `nest`: a minimal Nest + Express application with one hello controller (the framework floor),
 * - `nest-adapter`: the same on the application's HTTP adapter (apps/api/src/http/http-adapter.ts),
 * - `app`: the application as apps/api/src/main.ts builds it, on embedded stores in `dataDir`,
 *   optionally setting up an organization to load (see ChildSetup).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export type ServerMode = 'bare' | 'nest' | 'nest-adapter' | 'app';

/** What the child sets up in a fresh `app` before it reports ready. */
export type ChildSetup =
  | { kind: 'none' }
  /** A realm, a sender and `subscribers - 1` more users, all subscribed to the channel "crowd". */
  | { kind: 'organization'; subscribers: number };

export type ChildOptions = {
  mode: ServerMode;
  dataDir?: string;
  /** NODE_ENV of the child, the same for every mode (Express reads it too). */
  nodeEnv: string;
  logLevel?: string;
  setup?: ChildSetup;
  /** Extra node flags, e.g. ['--cpu-prof', '--cpu-prof-dir', DIR]. */
  execArgv?: string[];
  /** Extra environment for the application's configuration. */
  env?: Record<string, string>;
  /** Configuration overrides applied after the environment's (settings without a variable, e.g. sealMessageTexts). */
  configOverrides?: Record<string, unknown>;
  /**
   * The child script to run, when not this build's server-child.js: another build's (e.g. a baseline
   * checkout's dist/bench/server-child.js, for before/after pairs in one run).
   */
  script?: string;
};

export type ReadyMessage = {
  type: 'ready';
  port: number;
  /** From the child's first line of code to listening (and, for `app`, projections caught up). */
  bootMs: number;
  /** Set up by ChildSetup `organization`. */
  auth?: string;
  realmId?: number;
  userIds?: number[];
};

export type Usage = { cpuUs: number; userUs: number; systemUs: number; rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number; rssAnon?: number; rssFile?: number; rssShmem?: number };

export type ServerProcess = ReadyMessage & {
  pid: number;
  /** CPU time and memory; `gc` forces a full collection first (when the child runs with --expose-gc). */
  usage(gc?: boolean): Promise<Usage>;
  /** Writes a V8 heap snapshot of the child to `file` (a full GC first); resolves with the file. */
  heapSnapshot(file: string): Promise<string>;
  /** Graceful stop (a --cpu-prof profile is written on exit). */
  stop(): Promise<void>;
};

export function startServerProcess(options: ChildOptions): Promise<ServerProcess> {
  const child: ChildProcess = fork(options.script ?? join(__dirname, 'server-child.js'), [], {
    execArgv: options.execArgv ?? [],
    env: { ...process.env, NODE_ENV: options.nodeEnv, BENCH_CHILD: JSON.stringify(options) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const waiting: ((message: any) => void)[] = [];
  const snapshots: ((file: string) => void)[] = [];
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${options.mode} server exited with code ${code} before it was ready (its error is above)`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.on('message', (message: any) => {
      if (message.type === 'ready') {
        child.off('exit', onExit);
        resolve({
          ...(message as ReadyMessage),
          pid: child.pid!,
          usage: (gc?: boolean) =>
            new Promise<Usage>((r) => {
              waiting.push(r);
              child.send({ type: 'usage', gc: gc === true });
            }),
          heapSnapshot: (file: string) =>
            new Promise<string>((r) => {
              snapshots.push(r);
              child.send({ type: 'heapsnapshot', file });
            }),
          stop: () =>
            new Promise<void>((r) => {
              if (child.exitCode !== null) return r();
              child.once('exit', () => r());
              child.send({ type: 'stop' });
            }),
        });
      } else if (message.type === 'usage') {
        waiting.shift()?.(message.usage);
      } else if (message.type === 'heapsnapshot') {
        snapshots.shift()?.(message.file);
      }
    });
  });
}
