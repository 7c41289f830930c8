import { Module, type Provider } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DeciderCommands } from './shared/decider-command-handler';
import { DeciderRunner } from './shared/decider-runner';
import { AREAS, CLIENT_EVENT_AREAS, REGISTER_SECTION_AREAS } from './areas';
import type { AreaDescriptor } from './area-descriptor';
import type { AreaClientEvents, AreaRegisterSections } from './events/area-contributions';
import { ClientEventMappers } from './events/client-event-registry';
import { REGISTER_SECTIONS, RegisterState } from './events/register-state';
import { AuditHistory } from './operations/audit-history';

const areas: readonly AreaDescriptor[] = AREAS;

/** What the areas contribute to the shared lists of real-time events and /register. */
const AREA_CONTRIBUTIONS: Provider[] = [
  ...new Set([...CLIENT_EVENT_AREAS, ...REGISTER_SECTION_AREAS]),
  {
    provide: ClientEventMappers,
    inject: CLIENT_EVENT_AREAS,
    useFactory: (...contributions: AreaClientEvents[]) => ClientEventMappers.of(contributions),
  },
  {
    provide: REGISTER_SECTIONS,
    inject: REGISTER_SECTION_AREAS,
    useFactory: (...contributions: AreaRegisterSections[]) => contributions.flatMap((area) => area.registerSections()),
  },
  RegisterState,
];

/**
 * Command handlers and read-model queries of every area (AREAS, areas.ts). Needs the
 * infrastructure and projections modules (global).
 */
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [DeciderRunner, DeciderCommands, AuditHistory, ...AREA_CONTRIBUTIONS, ...areas.flatMap((area) => area.providers)],
  exports: [CqrsModule, DeciderRunner, AuditHistory, ClientEventMappers, RegisterState, ...areas.flatMap((area) => area.exports ?? [])],
})
export class ApplicationModule {}
