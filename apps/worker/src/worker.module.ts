import { type DynamicModule, Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, ApplicationModule, READ_STORE, type ReadStorePort } from '@app/application';
import type { AppConfig } from '@app/config';
import { InfrastructureModule, type InfrastructureOptions } from '@app/infrastructure';
import { ALL_PROJECTIONS, ProjectionsModule } from '@app/projections';

/**
 * A worker that leaves the projectors to another process still reads the read models (a delivery
 * looks up users, channels, subscriptions): open their collections, as a projector would at start.
 */
@Injectable()
class ReadModelCollections implements OnModuleInit {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.runProjectors) return;
    for (const projection of ALL_PROJECTIONS) await this.readStore.ensureCollection(projection.collection);
  }
}

/**
 * Servers mode: the background work in its own process — the projectors (RUN_PROJECTORS) and the
 * scheduled-message deliveries, a BullMQ Worker on the scheduler's queue (ScheduledDeliveries
 * starts it at boot and re-arms whatever is pending). The application module provides the command
 * handlers a delivery runs; it serves no HTTP here. API instances then run with
 * RUN_SCHEDULED_JOBS=false and only add, move and remove jobs.
 */
@Module({})
export class WorkerModule {
  static forRoot(options: InfrastructureOptions): DynamicModule {
    const config = { ...options.config, runScheduledJobs: true };
    return {
      module: WorkerModule,
      imports: [
        InfrastructureModule.forRoot({ ...options, config }),
        ProjectionsModule.forRoot({ runProjectors: config.runProjectors }),
        ApplicationModule,
      ],
      providers: [ReadModelCollections],
    };
  }
}
