import type { Provider } from '@nestjs/common';
import { PresenceQueries } from './presence.queries';
import { SendTypingNotificationHandler } from './send-typing-notification.handler';
import { UpdatePresenceHandler } from './update-presence.handler';

/** The presence area's handlers (presence pings, typing notifications) and queries, registered by ApplicationModule. */
export const PRESENCE_HANDLERS: Provider[] = [UpdatePresenceHandler, SendTypingNotificationHandler];
export const PRESENCE_QUERIES: Provider[] = [PresenceQueries];
