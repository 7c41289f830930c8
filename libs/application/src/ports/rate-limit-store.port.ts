/** The outcome of counting one request against a fixed window. */
export type RateLimitCount = {
  /** Requests counted for the key in the current window, this one included. */
  count: number;
  /** Milliseconds until the current window ends (and the count starts again from zero). */
  resetInMs: number;
};

/**
 * Request counters for rate limiting: a fixed window per key (`user:<id>`, `ip:<address>`).
 * In-process when embedded (each API instance counts its own requests); Redis in servers mode,
 * so every API instance shares one count per caller.
 */
export interface RateLimitStorePort {
  /** Counts one request for `key`; the window starts with the key's first request. */
  hit(key: string, windowSeconds: number): Promise<RateLimitCount>;
  /** Forgets `key`'s count (a successful login clears its failed attempts: clear_history). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');
