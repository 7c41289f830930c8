import { describeIfServer, rateLimitStoreContract } from '@app/testing';
import { InProcessRateLimitStore } from '@app/infrastructure';
import { RedisRateLimitStore } from '@app/infrastructure/redis/redis-rate-limit-store';

rateLimitStoreContract('embedded (in process)', async () => {
  const store = new InProcessRateLimitStore();
  return { store, cleanup: () => store.close() };
});

describeIfServer('REDIS_URL', 'RateLimitStorePort contract: servers (Redis)', (url) => {
  rateLimitStoreContract('servers (Redis)', async () => {
    const store = await RedisRateLimitStore.connect(url, `contract:${Date.now()}:`);
    return { store, cleanup: () => store.close() };
  });
});
