import { defineArea } from '../area-descriptor';
import { PresenceClientEvents } from './presence.client-events';
import { PresenceRegisterSections } from './presence.register';
import type { Provider } from '@nestjs/common';
import { PresenceQueries } from './presence.queries';
import { UpdatePresenceHandler } from './update-presence.handler';

const handlers: Provider[] = [UpdatePresenceHandler];
const queries: Provider[] = [PresenceQueries];

/** Presence (kept in its own store, not in the log: no decider, no events). */
export const presenceArea = defineArea({
  name: 'presence',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: PresenceClientEvents,
  registerSections: PresenceRegisterSections,
});
