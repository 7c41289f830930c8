import { type DynamicModule, Module } from '@nestjs/common';
import { ApplicationModule } from '@app/application';
import { InfrastructureModule, type InfrastructureOptions } from '@app/infrastructure';
import { OperationsModule, ProjectionsModule } from '@app/projections';

/**
 * The same providers as the server, without HTTP: commands go through the same handlers. A CLI
 * process never delivers scheduled messages (the server or the worker does, and re-arms at boot):
 * deliveries racing an `import-events` appended to streams the import was about to write.
 */
@Module({})
export class CliModule {
  static forRoot(options: InfrastructureOptions): DynamicModule {
    const config = { ...options.config, runScheduledJobs: false };
    return {
      module: CliModule,
      imports: [
        InfrastructureModule.forRoot({ ...options, config }),
        ProjectionsModule.forRoot({ runProjectors: config.runProjectors }),
        ApplicationModule,
        OperationsModule,
      ],
    };
  }
}
