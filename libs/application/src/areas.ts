import type { Type } from '@nestjs/common';
import type { AreaClientEvents, AreaRegisterSections } from './events/area-contributions';
import { CoreClientEventMappers } from './events/mappers/core-client-event-mappers';
import { MessageLifecycleClientEventMappers } from './events/mappers/message-lifecycle-client-event-mappers';
import { UsersChannelsClientEventMappers } from './events/mappers/users-channels-client-event-mappers';
import { LegacyRegisterSections } from './events/legacy-register-sections';
import { DraftsClientEvents } from './drafts/drafts.client-events';
import { DraftsRegisterSections } from './drafts/drafts.register';

/**
 * The one registration line per area for what every area may contribute to shared lists: its
 * client events (`<area>/<area>.client-events.ts`) and its /register sections
 * (`<area>/<area>.register.ts`). ApplicationModule provides them; see docs/adding-an-area.md.
 */
export const CLIENT_EVENT_AREAS: Type<AreaClientEvents>[] = [
  CoreClientEventMappers,
  UsersChannelsClientEventMappers,
  MessageLifecycleClientEventMappers,
  DraftsClientEvents,
];

export const REGISTER_SECTION_AREAS: Type<AreaRegisterSections>[] = [
  LegacyRegisterSections,
  DraftsRegisterSections,
];
