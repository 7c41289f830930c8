/**
 * The built servers on one data directory, started as an operator starts them (docs/deployment.md):
 * one API process alone (`single`), or a worker and `apis` API processes without projectors or
 * scheduled jobs (the split layout). Used by the benchmarks that measure the layouts side by side
 * (bench/split-layout.ts, bench/contention.ts); needs `npm run build`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export type LayoutServer = { name: string; child: ChildProcess; port?: number };

/** The repository's root, from bench/ or from dist/bench/. */
export const repositoryRoot = join(__dirname, '..', ...(__dirname.split(/[\\/]/).includes('dist') ? ['..'] : []));

/** A built entry point (`dist/apps/...`) in a child process: development, quiet, no rate limits. */
export function startBuiltServer(name: string, script: string, env: Record<string, string>): LayoutServer {
  // BENCH_SERVER_NODE_ARGS: node flags for the servers only (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"),
  // which NODE_OPTIONS may not carry.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, join(repositoryRoot, script)], {
    cwd: repositoryRoot,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', RATE_LIMIT_USER_REQUESTS: '0', RATE_LIMIT_IP_REQUESTS: '0', WORKER_METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { name, child, port: env.PORT ? Number(env.PORT) : undefined };
}

export type ServerLayoutOptions = {
  dataDir: string;
  apis: 'single' | number;
  /** A free port for the next API process. */
  nextPort: () => number;
  /** Resolves once the API process on `port` answers (it may create the development organization). */
  waitReady: (port: number) => Promise<unknown>;
  /** More environment for every process. */
  env?: Record<string, string>;
};

/** Starts the layout and waits until every API process answers. */
export async function startServerLayout(options: ServerLayoutOptions): Promise<{ servers: LayoutServer[]; apiPorts: number[] }> {
  const env = { DATA_DIR: options.dataDir, ...options.env };
  const servers: LayoutServer[] = [];
  const apiPorts: number[] = [];
  if (options.apis === 'single') {
    const port = options.nextPort();
    servers.push(startBuiltServer('api', 'dist/apps/api/src/main.js', { ...env, PORT: String(port) }));
    apiPorts.push(port);
  } else {
    servers.push(startBuiltServer('worker', 'dist/apps/worker/src/main.js', env));
    await new Promise((r) => setTimeout(r, 1500));
    for (let i = 0; i < options.apis; i++) {
      const port = options.nextPort();
      servers.push(startBuiltServer(`api${i + 1}`, 'dist/apps/api/src/main.js', { ...env, PORT: String(port), RUN_PROJECTORS: 'false', RUN_SCHEDULED_JOBS: 'false' }));
      apiPorts.push(port);
      // The first one creates the development organization alone.
      if (i === 0) await options.waitReady(port);
    }
  }
  for (const port of apiPorts) await options.waitReady(port);
  return { servers, apiPorts };
}

/** SIGTERM to each process still running; resolves when all have exited. */
export async function stopServers(servers: LayoutServer[]): Promise<void> {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.child.exitCode !== null) return resolve();
          s.child.once('exit', () => resolve());
          s.child.kill('SIGTERM');
        }),
    ),
  );
}
