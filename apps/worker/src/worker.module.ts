import { type DynamicModule, Module } from '@nestjs/common';
import { ApplicationModule } from '@app/application';
import { InfrastructureModule, type InfrastructureOptions } from '@app/infrastructure';
import { ProjectionsModule } from '@app/projections';

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
        // A server refuses a log whose sealed texts it has no key for (docs/deployment.md).
        InfrastructureModule.forRoot({ checkSealedLog: true, ...options, config }),
        ProjectionsModule.forRoot({ runProjectors: config.runProjectors }),
        ApplicationModule,
      ],
    };
  }
}
