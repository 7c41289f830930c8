import { Redis } from 'ioredis';
import type { RateLimitCount, RateLimitStorePort } from '@app/application';

/**
 * One atomic step per request: INCR the key, start its expiry with the first request of a window,
 * and return the count with the time left. Atomic (a Lua script), so concurrent API instances never
 * lose a count, and a key can never be left without an expiry.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/** Fixed-window counters shared by every API instance (servers mode, REDIS_URL). */
export class RedisRateLimitStore implements RateLimitStorePort {
  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Connects before answering, and fails fast (no offline queue) so a Redis outage is visible at once. */
  static async connect(url: string, prefix = 'ratelimit:'): Promise<RedisRateLimitStore> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    await redis.connect();
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    return new RedisRateLimitStore(redis, prefix);
  }

  async hit(key: string, windowSeconds: number): Promise<RateLimitCount> {
    const run = (this.redis as unknown as { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> }).rateLimitHit;
    const [count, ttl] = await run.call(this.redis, `${this.prefix}${key}`, Math.max(1, Math.round(windowSeconds * 1000)));
    return { count: Number(count), resetInMs: Number(ttl) };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}${key}`);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
