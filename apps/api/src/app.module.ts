import { type DynamicModule, Module } from '@nestjs/common';
import { ApplicationModule } from '@app/application';
import { InfrastructureModule, type InfrastructureOptions } from '@app/infrastructure';
import { ProjectionsModule } from '@app/projections';
import { HealthController } from './health/health.controller';
import { DevelopmentOrganization } from './development/development-organization';

export type AppOptions = InfrastructureOptions;

@Module({})
export class AppModule {
  static forRoot(options: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(options),
        ProjectionsModule.forRoot({ runProjectors: options.config.runProjectors }),
        ApplicationModule,
      ],
      controllers: [HealthController],
      providers: [DevelopmentOrganization],
    };
  }
}
