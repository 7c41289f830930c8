/**
 * Shared helpers of the benchmark scripts: argument parsing, temp dirs, timing, percentiles,
 * progress lines and the JSON result that bench/run-all.ts turns into docs/benchmarks.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';

export type Args = Record<string, string | true>;

/** `--name value`, `--name=value` and bare `--flag`. */
export function parseArgs(argv: string[] = process.argv.slice(2)): Args {
  const args: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) {
      args[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      args[arg.slice(2)] = argv[++i];
    } else {
      args[arg.slice(2)] = true;
    }
  }
  return args;
}

export function intArg(args: Args, name: string, fallback: number): number {
  const raw = args[name];
  if (raw === undefined) return fallback;
  const value = Number(String(raw).replace(/[_,]/g, ''));
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number, got ${String(raw)}`);
  return Math.floor(value);
}

export function stringArg<T extends string>(args: Args, name: string, fallback: T, allowed?: readonly T[]): T {
  const raw = args[name];
  if (raw === undefined) return fallback;
  if (raw === true) throw new Error(`--${name} needs a value`);
  if (allowed && !allowed.includes(raw as T)) throw new Error(`--${name} must be one of ${allowed.join(', ')}`);
  return raw as T;
}

/** A fresh directory under the OS temp dir, removed by the returned function. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `chat-bench-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export const now = (): number => performance.now();

const started = now();
/** A progress line on stderr, so that stdout stays the human summary. */
export function progress(message: string): void {
  process.stderr.write(`[${((now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}

export const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');
export const fmtNum = (n: number, digits = 2): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The middle value (the lower of the two middle ones for an even count: always a value that was measured). */
export function lowerMedian(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Nearest-rank percentile of an ascending-sorted array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** A growable Float64Array of samples (latencies in ms), cheap to record millions into. */
export class Samples {
  private data = new Float64Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  sorted(): Float64Array {
    return this.data.slice(0, this.length).sort();
  }
}

export type ResultRow = {
  /** What was measured, e.g. "port appendToStream, 1 event each". */
  metric: string;
  value: number;
  unit: string;
  /** Free text: percentiles, totals, a comparison. */
  detail?: string;
};

export type BenchResult = {
  name: string;
  title: string;
  /** The command that reproduces this script's numbers. */
  command: string;
  params: Record<string, string | number | boolean>;
  rows: ResultRow[];
  notes: string[];
  /** Whether each stated target was met. */
  targets?: { description: string; met: boolean }[];
  durationMs: number;
};

/** The command line this script was started with, relative to the repository root. */
export function commandLine(): string {
  const script = relative(process.cwd(), process.argv[1] ?? '');
  const flags = process.execArgv.length > 0 ? `${process.execArgv.join(' ')} ` : '';
  return ['node', `${flags}${script}`, ...process.argv.slice(2).filter((a, i, all) => a !== '--json' && all[i - 1] !== '--json')].join(' ');
}

/** Writes the result for run-all when `--json FILE` is given. */
export function emitResult(args: Args, result: BenchResult): void {
  const file = args.json;
  if (typeof file === 'string') writeFileSync(file, JSON.stringify(result, null, 2));
}

/** Prints the rows as an aligned text table on stdout. */
export function printRows(title: string, rows: ResultRow[]): void {
  const cells = rows.map((r) => [r.metric, `${fmtInt(r.value)} ${r.unit}`, r.detail ?? '']);
  const widths = [0, 1].map((i) => Math.max(...cells.map((c) => c[i].length)));
  process.stdout.write(`\n${title}\n${'-'.repeat(title.length)}\n`);
  for (const c of cells) process.stdout.write(`${c[0].padEnd(widths[0])}  ${c[1].padStart(widths[1])}  ${c[2]}\n`);
  process.stdout.write('\n');
}

export function machineInfo() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** Runs `main` and exits non-zero with the error on failure (each script is runnable alone). */
export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
