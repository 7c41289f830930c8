#!/usr/bin/env node
// The split layout on one machine (docs/deployment.md): one worker (projectors, scheduled-message
// deliveries) and API_PROCESSES API processes (default 2) with RUN_PROJECTORS=false and
// RUN_SCHEDULED_JOBS=false, all on the same stores (one DATA_DIR on the embedded set). The API
// processes listen on PORT, PORT+1, …; the worker's metrics on WORKER_METRICS_PORT (default the
// port after the last API's). Every other variable passes through to every process.
//
//   npm run start:split                       # build, then worker + 2 API processes on 9991, 9992
//   API_PROCESSES=4 PORT=8000 npm run start:split
//
// Put a proxy in front that keeps a client on one API process (event queues live in the process
// that registered them; docs/deployment.md). Ctrl-C stops everything; if one process dies, the
// others are stopped and the exit code says so.
'use strict';
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const count = Number(process.env.API_PROCESSES ?? 2);
const basePort = Number(process.env.PORT ?? 9991);
if (!Number.isInteger(count) || count < 1) fail(`API_PROCESSES must be a positive integer, got ${process.env.API_PROCESSES}`);
if (!Number.isInteger(basePort) || basePort < 1 || basePort + count > 65535) fail(`PORT must be a port number, got ${process.env.PORT}`);

const children = new Set();
let stopping = false;
let exitCode = 0;

function fail(message) {
  process.stderr.write(`start-split: ${message}\n`);
  process.exit(78);
}

/** Starts a process, prefixes its output lines, resolves once a line contains `readyText`. */
function start(name, script, env, readyText) {
  const child = spawn(process.execPath, [join(root, script)], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let ready;
  const readyPromise = new Promise((resolve) => (ready = resolve));
  for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
    let pending = '';
    stream.on('data', (chunk) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        out.write(`[${name}] ${line}\n`);
        if (line.includes(readyText)) ready();
      }
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (!stopping) {
      process.stderr.write(`start-split: ${name} exited (${signal ?? code}); stopping the others\n`);
      exitCode = code || 1;
      stopAll();
    }
    if (children.size === 0) process.exit(exitCode);
  });
  return readyPromise;
}

function stopAll() {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
}

process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);

async function main() {
  const apiEnv = (i) => ({ PORT: String(basePort + i), RUN_PROJECTORS: 'false', RUN_SCHEDULED_JOBS: 'false' });
  // The worker first: it creates (or catches up) the read models the API processes open.
  await start('worker', 'dist/apps/worker/src/main.js', { RUN_PROJECTORS: 'true', WORKER_METRICS_PORT: process.env.WORKER_METRICS_PORT ?? String(basePort + count) }, 'worker running projectors');
  if (stopping) return;
  // One API alone first, so that a development server's first start creates its organization
  // once; the others then start together.
  await start('api1', 'dist/apps/api/src/main.js', apiEnv(0), 'server listening');
  await Promise.all(Array.from({ length: count - 1 }, (_, i) => start(`api${i + 2}`, 'dist/apps/api/src/main.js', apiEnv(i + 1), 'server listening')));
  if (stopping) return;
  process.stdout.write(`start-split: worker + ${count} API process(es) on ports ${Array.from({ length: count }, (_, i) => basePort + i).join(', ')}\n`);
}

main().catch((error) => {
  process.stderr.write(`start-split: ${error.stack ?? error}\n`);
  stopAll();
});
