import type { Provider } from '@nestjs/common';
import { RATE_LIMIT_STORE, type RateLimitStorePort } from '@app/application';
import type { AppConfig } from '@app/config';
import { InProcessRateLimitStore } from './embedded/in-process-rate-limit-store';

/**
 * Rate-limit counters: shared in Redis (REDIS_URL) when the event store runs in servers mode, so
 * every API instance counts against one budget per caller; in this process otherwise. The Redis
 * client is loaded only when chosen.
 */
export async function openRateLimitStore(config: AppConfig): Promise<RateLimitStorePort> {
  if (config.eventStoreDriver === 'servers' || config.readStoreDriver === 'servers') {
    const { RedisRateLimitStore } = await import('./redis/redis-rate-limit-store');
    return RedisRateLimitStore.connect(config.redisUrl);
  }
  return new InProcessRateLimitStore();
}

/** Closed with the application (Nest calls the hook on the instance the factory returned). */
export const rateLimitStoreProvider = (config: AppConfig): Provider => ({
  provide: RATE_LIMIT_STORE,
  useFactory: async () => {
    const store = await openRateLimitStore(config);
    return Object.assign(store, { onApplicationShutdown: () => store.close() });
  },
});
