/**
 * The short version of S1 (test/reliability/crash-run.ts) for CI: the real server, killed with
 * SIGKILL three times under a workload of sends, flag changes, edits and scheduled messages, keeps
 * every acknowledged write exactly once, and its read models equal a rebuild from the log.
 * The full run (10 rounds) is `npm run reliability:crash`.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '..', '..');

it('the server killed mid-workload three times loses and duplicates nothing, and equals a rebuild', async () => {
  const child = spawn(process.execPath, ['-r', join(__dirname, 'register-swc.js'), join(ROOT, 'test', 'reliability', 'crash-run.ts'), '--rounds', '3', '--min-ms', '400', '--max-ms', '1500'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  if (code !== 0) throw new Error(`crash run failed (exit ${code}):\n${stdout}\n${stderr.slice(-3000)}`);
  const summary = JSON.parse(stdout.slice(0, stdout.lastIndexOf('}') + 1));
  expect(summary).toMatchObject({ rounds: 3, failures: 0, serverErrors: 0 });
  expect(summary.sendsAcked).toBeGreaterThan(0);
  expect(summary.readModelRowsCompared).toBeGreaterThan(0);
});
