import { type BeforeApplicationShutdown, Inject, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  APP_CONFIG,
  ApplicationModule,
  CLIENT_EVENT_BUS,
  ClientEventMappers,
  ClientEventReactor,
  type ClientEventBusPort,
  EVENT_STORE,
  type EventStorePort,
  EventQueues,
  InProcessClientEventBus,
  LOGGER,
  ProjectionWaiter,
  RANDOM,
  type RandomPort,
  READ_STORE,
  type ReadStorePort,
  UserQueries,
} from '@app/application';
import type { AppConfig } from '@app/config';
import type { Logger } from 'pino';
import { TypingController } from '../typing/typing.controller';
import { EventsController } from './events.controller';
import { RegisterCoordinator } from './register-coordinator';

/**
 * Real-time events: the event queues of this process, the reactor that fills them from the global
 * log (mapping with ClientEventMappers, which ApplicationModule builds from every area's client events), the
 * client-event bus (typing; Redis pub/sub in servers mode) and the endpoints.
 */
@Module({
  imports: [ApplicationModule],
  controllers: [EventsController, TypingController],
  providers: [
    {
      provide: EventQueues,
      inject: [RANDOM, APP_CONFIG],
      useFactory: (random: RandomPort, config: AppConfig) =>
        new EventQueues({ instanceId: `${Math.floor(Date.now() / 1000)}${random.alphanumeric(6)}`, heartbeatMs: config.eventHeartbeatMs }),
    },
    {
      provide: ClientEventReactor,
      inject: [EVENT_STORE, READ_STORE, ProjectionWaiter, ClientEventMappers, EventQueues, LOGGER, UserQueries],
      useFactory: (
        events: EventStorePort,
        readStore: ReadStorePort,
        waiter: ProjectionWaiter,
        mappers: ClientEventMappers,
        queues: EventQueues,
        logger: Logger,
        users: UserQueries,
      ) =>
        new ClientEventReactor(events, readStore, waiter, mappers, queues, logger.child({ component: 'client-events' }), (realmId) => users.activeIds(realmId)),
    },
    {
      provide: CLIENT_EVENT_BUS,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<ClientEventBusPort> => {
        // Servers mode: several API instances, so typing notifications cross them over Redis.
        if (config.eventStoreDriver === 'servers' || config.readStoreDriver === 'servers') {
          const { RedisClientEventBus } = await import('@app/infrastructure/redis/redis-client-event-bus');
          return RedisClientEventBus.connect(config.redisUrl, config.storeNamespace ? `client-events:${config.storeNamespace}` : undefined);
        }
        // The embedded split layout: API processes without projectors beside a worker on one
        // DATA_DIR cross over a SQLite table; the single process keeps to memory.
        if (!config.runProjectors) {
          const { SqliteClientEventBus } = await import('@app/infrastructure/embedded/sqlite-client-event-bus');
          return SqliteClientEventBus.open(config.dataDir, config.sqliteSynchronous);
        }
        return new InProcessClientEventBus();
      },
    },
    RegisterCoordinator,
  ],
  exports: [EventQueues, ClientEventReactor, RegisterCoordinator, CLIENT_EVENT_BUS],
})
export class EventsModule implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly queues: EventQueues,
    private readonly reactor: ClientEventReactor,
    @Inject(CLIENT_EVENT_BUS) private readonly bus: ClientEventBusPort,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(({ userIds, event }) => this.queues.deliver(userIds, event));
    await this.reactor.start();
    this.queues.startCollecting();
  }

  /** Before the stores close: the reactor reads the log, and waiting polls are answered. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.reactor.stop();
    this.queues.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}
