import { type DynamicModule, Module } from '@nestjs/common';
import { InfrastructureModule, type InfrastructureOptions } from '@app/infrastructure';
import { ProjectionsModule } from '@app/projections';

/** Servers mode: the projectors (and, later, scheduled-message processors) in their own process. */
@Module({})
export class WorkerModule {
  static forRoot(options: InfrastructureOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [InfrastructureModule.forRoot(options), ProjectionsModule.forRoot({ runProjectors: true })],
    };
  }
}
