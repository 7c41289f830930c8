import { RateLimitedError } from './api-errors';

export type RateLimitRule = { requests: number; windowSeconds: number };

/**
 * Fixed-window request counting per key (a user id, or an IP address for unauthenticated calls),
 * as Zulip's defaults: 200 requests per minute per user, 100 per IP. In-process: each API
 * instance counts its own requests.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweeps = 0;

  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, rule: RateLimitRule): void {
    if (rule.requests <= 0) return; // disabled
    const now = this.now();
    const windowMs = rule.windowSeconds * 1000;
    let window = this.windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count > rule.requests) {
      throw new RateLimitedError(Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)));
    }
    if (++this.sweeps % 10_000 === 0) this.sweep(now, windowMs);
  }

  /** Forgets finished windows so memory stays bounded by the active callers. */
  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= windowMs) this.windows.delete(key);
  }
}
