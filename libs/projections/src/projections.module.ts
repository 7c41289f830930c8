import {
  type DynamicModule,
  Global,
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import {
  APP_CONFIG,
  EVENT_STORE,
  type EventStorePort,
  LOGGER,
  ProjectionWaiter,
  READ_MODEL_CHANGES,
  type ReadModelChangesPort,
  READ_STORE,
  STORAGE_SCRUBBER,
  type StorageScrubberPort,
  type ReadStorePort,
  USER_MESSAGE_STORE,
  type UserMessageStorePort,
} from '@app/application';
import type { AppConfig } from '@app/config';
import type { Logger } from 'pino';
import { ALL_PROJECTIONS } from './all-projections';
import { Projector } from './shared/projector';
import { CheckpointWaiter } from './shared/checkpoint-waiter';
import { USER_MESSAGES_PROJECTION, userMessagesProjection } from './messages/user-messages.projection';

/** How often an API process waiting at boot for the worker's projectors says so. */
const BOOT_WAIT_LOG_MS = 10_000;

/**
 * Runs the projectors in this process (the single layout, the worker) or, when they run
 * elsewhere (an API process of the split layout), opens the read models they write and provides a
 * waiter on their checkpoints. Either way handlers get a ProjectionWaiter.
 */
@Global()
@Module({})
export class ProjectionsModule implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly waiter: ProjectionWaiter,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(Projector) private readonly projector?: Projector,
  ) {}

  static forRoot({ runProjectors }: { runProjectors: boolean }): DynamicModule {
    const providers = runProjectors
      ? [
          {
            provide: Projector,
            inject: [EVENT_STORE, READ_STORE, LOGGER, APP_CONFIG, USER_MESSAGE_STORE, STORAGE_SCRUBBER],
            useFactory: (events: EventStorePort, readStore: ReadStorePort, logger: Logger, config: AppConfig, userMessages: UserMessageStorePort, scrubber: StorageScrubberPort) =>
              new Projector(events, readStore, ALL_PROJECTIONS, logger.child({ component: 'projector' }), {
                waitTimeoutMs: config.projectionWaitTimeoutMs,
                bulkProjections: [userMessagesProjection(userMessages)],
                // A deleted message's text leaves the files too, not only the tables (docs/security.md, "Read models").
                erasures: { types: ['MessageDeleted'], committed: () => scrubber.request() },
              }),
          },
          { provide: ProjectionWaiter, useExisting: Projector },
        ]
      : [
          {
            provide: ProjectionWaiter,
            inject: [READ_STORE, APP_CONFIG, READ_MODEL_CHANGES],
            useFactory: (readStore: ReadStorePort, config: AppConfig, changes: ReadModelChangesPort) =>
              new CheckpointWaiter(readStore, [...ALL_PROJECTIONS.map((p) => p.name), USER_MESSAGES_PROJECTION], changes, {
                timeoutMs: config.projectionWaitTimeoutMs,
              }),
          },
        ];
    return { module: ProjectionsModule, providers, exports: [ProjectionWaiter, ...(runProjectors ? [Projector] : [])] };
  }

  /**
   * Without projectors here, whoever opens the read models ensures them: the collections and
   * their indexes, the per-user message tables (idempotent, as the projectors' start does).
   */
  async onModuleInit(): Promise<void> {
    if (this.projector) return;
    for (const projection of ALL_PROJECTIONS) await this.readStore.ensureCollection(projection.collection);
    await this.userMessages.prepare();
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.projector) {
      await this.awaitProjectorsElsewhere();
      return;
    }
    await this.projector.start();
    // Serve nothing stale at boot: apply whatever the log already holds first.
    await this.projector.catchUp();
  }

  /** Serve nothing stale at boot either: wait (as long as it takes) for the worker to reach the log's head. */
  private async awaitProjectorsElsewhere(): Promise<void> {
    const head = await this.events.headPosition();
    if (head === undefined) return;
    const waiting = this.waiter.waitFor(head, Infinity);
    const started = Date.now();
    const timer = setInterval(() => {
      this.logger.info({ head: head.toString(), waitedMs: Date.now() - started }, 'waiting for the projectors (apps/worker) to reach the log\'s head');
    }, BOOT_WAIT_LOG_MS);
    timer.unref();
    try {
      await waiting;
    } finally {
      clearInterval(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projector?.stop();
    if (this.waiter instanceof CheckpointWaiter) this.waiter.close();
  }
}
