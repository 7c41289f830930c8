import { setFlagsFromString } from 'node:v8';

/**
 * Linkifier patterns come from users and run on every message. Zulip matches them with re2
 * (linear time); V8's default engine backtracks, so a pattern such as `(a+)+$` can take
 * exponential time. V8 has a linear-time engine too (experimental in Node 20):
 *
 * - `--enable-experimental-regexp-engine` lets a pattern be compiled for it (the `l` flag).
 *   Saving a linkifier compiles its pattern with `l`: only patterns the linear engine can run
 *   are accepted (see re2-pattern.ts).
 * - `--enable-experimental-regexp-engine-on-excessive-backtracks` makes V8 run such a pattern on
 *   the fast backtracking engine and switch to the linear engine once a match has backtracked
 *   more than `--regexp-backtracks-before-fallback` (50,000) times. Rendering uses this: the
 *   speed of the usual engine, and a linear bound for hostile patterns (the linear engine alone
 *   is about 400 times slower on ordinary text).
 *
 * Both are V8 flags, which NODE_OPTIONS does not accept; they are set here, once, when the
 * linkifier code is loaded (before any linkifier pattern is compiled), so the server, the worker,
 * the CLI and jest all get them without command-line flags. They change no result of any other
 * regular expression (the fallback only runs patterns it can run with the same semantics).
 */
let enabled = false;

export function enableLinearRegExpFallback(): void {
  if (enabled) return;
  setFlagsFromString('--enable-experimental-regexp-engine');
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  enabled = true;
}

enableLinearRegExpFallback();

/** Whether V8's linear-time engine can run this source (no backreferences, lookarounds, `u`/`i` flags, huge counters). */
export function runsInLinearTime(source: string, flags = ''): boolean {
  try {
    new RegExp(source, `${flags}l`);
    return true;
  } catch {
    return false;
  }
}
