import type { Response } from 'express';
import type { Logger } from 'pino';
import type { RateLimitStorePort } from '@app/application';
import { RateLimitedError } from './api.errors';

export type RateLimitRule = { requests: number; windowSeconds: number };

/**
 * Zulip's rate limiting: fixed windows counted per key, `user:<id>` for authenticated requests and
 * `ip:<address>` for unauthenticated ones (public endpoints and failed authentications, so API keys
 * cannot be guessed at speed). Defaults as Zulip's: 200 requests per minute per user, 100 per IP.
 * The counters live behind RateLimitStorePort: in process when embedded, in Redis in servers mode
 * (one budget per caller across API instances). Over the limit: 429 RATE_LIMIT_HIT with
 * Retry-After and Zulip's `retry-after` field; every counted response carries Zulip's
 * X-RateLimit-Limit / -Remaining / -Reset headers. If the store is unreachable the request is let
 * through and a warning logged: an outage of the counters must not take the whole API down.
 */
export class RateLimiter {
  constructor(
    private readonly store: RateLimitStorePort,
    private readonly logger?: Pick<Logger, 'warn'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a rule counts at all (a limit of 0 requests turns it off). */
  static counts(rule: RateLimitRule): boolean {
    return rule.requests > 0;
  }

  async hit(key: string, rule: RateLimitRule, response?: Response): Promise<void> {
    if (!RateLimiter.counts(rule)) return; // disabled
    let counted: { count: number; resetInMs: number };
    try {
      counted = await this.store.hit(key, rule.windowSeconds);
    } catch (error) {
      this.logger?.warn({ err: { message: (error as Error).message }, kind: key.split(':')[0] }, 'rate-limit store unavailable; request not counted');
      return;
    }
    const resetInSeconds = Math.max(1, Math.ceil(counted.resetInMs / 1000));
    if (response && !response.headersSent) {
      response.setHeader('X-RateLimit-Limit', String(rule.requests));
      response.setHeader('X-RateLimit-Remaining', String(Math.max(0, rule.requests - counted.count)));
      response.setHeader('X-RateLimit-Reset', String(Math.ceil((this.now() + counted.resetInMs) / 1000)));
    }
    if (counted.count > rule.requests) throw new RateLimitedError(resetInSeconds);
  }

  /** Forgets a key's count; an unreachable store is logged, not fatal. */
  async reset(key: string): Promise<void> {
    try {
      await this.store.reset(key);
    } catch (error) {
      this.logger?.warn({ err: { message: (error as Error).message }, kind: key.split(':')[0] }, 'rate-limit store unavailable; count not reset');
    }
  }
}
