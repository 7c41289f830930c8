/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof` or replay-throughput's `--cpu-profile`):
 * self time per function and inclusive time of the hottest frames, as plain text.
 *
 *   node dist/bench/cpuprofile-summary.js FILE.cpuprofile [--top 25]
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { intArg, parseArgs } from './support';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[]; hitCount?: number };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const frameName = (f: CallFrame) => {
  const where = f.url ? `${relative(process.cwd(), f.url.replace(/^file:\/\//, ''))}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
};

export function summarise(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const name = frameName(byId.get(id)!.callFrame);
    self.set(name, (self.get(name) ?? 0) + us);
    // Count each distinct frame name once per stack for inclusive time.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = frameName(byId.get(cur)!.callFrame);
      if (seen.has(n)) continue;
      seen.add(n);
      inclusive.set(n, (inclusive.get(n) ?? 0) + us);
    }
  }
  const table = (title: string, m: Map<string, number>) => {
    const rows = [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
    return [
      `${title} (of ${(total / 1000).toFixed(0)} ms sampled)`,
      ...rows.map(([name, us]) => `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`),
    ].join('\n');
  };
  return `${table('Self time', self)}\n\n${table('Inclusive time', inclusive)}\n`;
}

if (require.main === module) {
  const args = parseArgs(process.argv.slice(3));
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node dist/bench/cpuprofile-summary.js FILE.cpuprofile [--top 25]\n');
    process.exit(2);
  }
  process.stdout.write(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, intArg(args, 'top', 25)));
}
