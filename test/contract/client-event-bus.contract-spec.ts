import { InProcessClientEventBus } from '@app/application';
import { describeIfServer, makeTempDir } from '@app/testing';
import { SqliteClientEventBus } from '@app/infrastructure/embedded/sqlite-client-event-bus';
import { RedisClientEventBus } from '@app/infrastructure/redis/redis-client-event-bus';
import { clientEventBusContract } from '@app/testing/contracts/client-event-bus.contract';

clientEventBusContract('embedded (in process)', async () => {
  // One process: both "instances" share the one bus.
  const bus = new InProcessClientEventBus();
  return { buses: [bus, bus], cleanup: () => bus.close() };
});

describeIfServer('REDIS_URL', 'ClientEventBusPort contract: servers (Redis pub/sub)', (url) => {
  clientEventBusContract('servers (Redis pub/sub, two instances)', async () => {
    const channel = `contract-client-events:${Date.now()}`;
    const a = await RedisClientEventBus.connect(url, channel);
    const b = await RedisClientEventBus.connect(url, channel);
    return { buses: [a, b], cleanup: async () => void (await Promise.all([a.close(), b.close()])) };
  });
});

clientEventBusContract('embedded split layout (SQLite table, two processes on one data directory)', async () => {
  const dir = makeTempDir('client-event-bus-');
  // Two connections, as two API processes would open the file.
  const a = SqliteClientEventBus.open(dir.path);
  const b = SqliteClientEventBus.open(dir.path);
  return {
    buses: [a, b],
    cleanup: async () => {
      await Promise.all([a.close(), b.close()]);
      dir.remove();
    },
  };
});
