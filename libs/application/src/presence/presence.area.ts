import { defineArea } from '../area-descriptor';
import { PresenceClientEvents } from './presence.client-events';
import { PresenceRegisterSections } from './presence.register';
import type { Provider } from '@nestjs/common';
import { PresenceQueries } from './presence.queries';
import { SendTypingNotificationHandler } from './send-typing-notification.handler';
import { UpdatePresenceHandler } from './update-presence.handler';

const handlers: Provider[] = [UpdatePresenceHandler, SendTypingNotificationHandler];
const queries: Provider[] = [PresenceQueries];

/** Presence (kept in its own store, not in the log: no decider, no events) and typing notifications (not in the log either). */
export const presenceArea = defineArea({
  name: 'presence',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: PresenceClientEvents,
  registerSections: PresenceRegisterSections,
});
