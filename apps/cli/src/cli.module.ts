import { type DynamicModule, Module } from '@nestjs/common';
import { ApplicationModule } from '@app/application';
import { InfrastructureModule, type InfrastructureOptions } from '@app/infrastructure';
import { OperationsModule, ProjectionsModule } from '@app/projections';

/** The same providers as the server, without HTTP: commands go through the same handlers. */
@Module({})
export class CliModule {
  static forRoot(options: InfrastructureOptions): DynamicModule {
    return {
      module: CliModule,
      imports: [
        InfrastructureModule.forRoot(options),
        ProjectionsModule.forRoot({ runProjectors: options.config.runProjectors }),
        ApplicationModule,
        OperationsModule,
      ],
    };
  }
}
