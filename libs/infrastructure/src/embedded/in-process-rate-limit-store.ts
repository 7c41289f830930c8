import type { RateLimitCount, RateLimitStorePort } from '@app/application';

/** Fixed windows in this process's memory; finished windows are swept so memory stays bounded by active callers. */
export class InProcessRateLimitStore implements RateLimitStorePort {
  private readonly windows = new Map<string, { start: number; count: number; windowMs: number }>();
  private hits = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowSeconds: number): Promise<RateLimitCount> {
    const now = this.now();
    const windowMs = windowSeconds * 1000;
    let window = this.windows.get(key);
    if (!window || now - window.start >= window.windowMs) {
      window = { start: now, count: 0, windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    if (++this.hits % 10_000 === 0) this.sweep(now);
    return { count: window.count, resetInMs: window.start + window.windowMs - now };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= window.windowMs) this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}
