import { Module } from '@nestjs/common';
import { EVENT_STORE, type EventStorePort, LIVE_READ_MODELS, type LiveReadModels, LOGGER } from '@app/application';
import type { Logger } from 'pino';
import { Projector } from '../shared/projector';
import { ProjectionRebuilder } from './projection-rebuild';

/** What operators use (the CLI and the administrators' endpoints): rebuilds. The audit history is AuditHistory (@app/application). */
@Module({
  providers: [
    {
      provide: ProjectionRebuilder,
      inject: [EVENT_STORE, LIVE_READ_MODELS, LOGGER, { token: Projector, optional: true }],
      useFactory: (events: EventStorePort, live: LiveReadModels, logger: Logger, projector?: Projector) =>
        new ProjectionRebuilder(events, live, projector, logger.child({ component: 'projection-rebuild' })),
    },
  ],
  exports: [ProjectionRebuilder],
})
export class OperationsModule {}
