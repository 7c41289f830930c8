import {
  type DynamicModule,
  Global,
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import {
  APP_CONFIG,
  EVENT_STORE,
  type EventStorePort,
  LOGGER,
  ProjectionWaiter,
  READ_STORE,
  type ReadStorePort,
  USER_MESSAGE_STORE,
  type UserMessageStorePort,
} from '@app/application';
import type { AppConfig } from '@app/config';
import type { Logger } from 'pino';
import { ALL_PROJECTIONS } from './all-projections';
import { CheckpointPollingWaiter, Projector } from './shared/projector';
import { USER_MESSAGES_PROJECTION, userMessagesProjection } from './messages/user-messages.projection';

/**
 * Runs the projectors in this process (embedded mode, the worker) or, when they run elsewhere,
 * provides a waiter that polls their checkpoints. Either way handlers get a ProjectionWaiter.
 */
@Global()
@Module({})
export class ProjectionsModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Optional() @Inject(Projector) private readonly projector?: Projector) {}

  static forRoot({ runProjectors }: { runProjectors: boolean }): DynamicModule {
    const providers = runProjectors
      ? [
          {
            provide: Projector,
            inject: [EVENT_STORE, READ_STORE, LOGGER, APP_CONFIG, USER_MESSAGE_STORE],
            useFactory: (events: EventStorePort, readStore: ReadStorePort, logger: Logger, config: AppConfig, userMessages: UserMessageStorePort) =>
              new Projector(events, readStore, ALL_PROJECTIONS, logger.child({ component: 'projector' }), {
                waitTimeoutMs: config.projectionWaitTimeoutMs,
                bulkProjections: [userMessagesProjection(userMessages)],
              }),
          },
          { provide: ProjectionWaiter, useExisting: Projector },
        ]
      : [
          {
            provide: ProjectionWaiter,
            inject: [READ_STORE, APP_CONFIG],
            useFactory: (readStore: ReadStorePort, config: AppConfig) =>
              new CheckpointPollingWaiter(readStore, [...ALL_PROJECTIONS.map((p) => p.name), USER_MESSAGES_PROJECTION], config.projectionWaitTimeoutMs),
          },
        ];
    return { module: ProjectionsModule, providers, exports: [ProjectionWaiter, ...(runProjectors ? [Projector] : [])] };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.projector) return;
    await this.projector.start();
    // Serve nothing stale at boot: apply whatever the log already holds first.
    await this.projector.catchUp();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projector?.stop();
  }
}
