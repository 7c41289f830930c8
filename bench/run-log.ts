/**
 * A section of docs/benchmarks.md that shows the last run in full and lists every run before it,
 * one line each (`- Run <date>: …`), so that noisy numbers on a shared machine can be compared.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeDocSection } from './app-harness';
import { type BenchResult, machineInfo } from './support';

const RUN_PREFIX = '- Run ';

/** The `- Run …` lines already in the section between `start` and `end`. */
export function previousRuns(doc: string, start: string, end: string): string[] {
  if (!existsSync(doc)) return [];
  const text = readFileSync(doc, 'utf8');
  const from = text.indexOf(start.split(' (')[0]);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return [];
  return text
    .slice(from, to)
    .split('\n')
    .filter((line) => line.startsWith(RUN_PREFIX))
    .map((line) => line.slice(2));
}

/** Rewrites the section with `result` and the run list, `summary` appended as this run's line. */
export function appendRunToDocSection(doc: string, start: string, end: string, title: string, result: BenchResult, summary: string): void {
  const m = machineInfo();
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const runs = [...previousRuns(doc, start, end), `Run ${stamp} (${m.cores} cores, load average ${loadAverage()}), \`${result.command}\`: ${summary}`];
  writeDocSection(doc, start, end, title, { ...result, notes: [...result.notes, 'Every run of this script, oldest first:', ...runs] });
}

function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 1).join('');
  } catch {
    return 'unknown';
  }
}
