import type { Provider } from '@nestjs/common';
import { PresenceQueries } from './presence.queries';
import { UpdatePresenceHandler } from './update-presence.handler';

/** The presence area's handlers and queries, registered by ApplicationModule. */
export const PRESENCE_HANDLERS: Provider[] = [UpdatePresenceHandler];
export const PRESENCE_QUERIES: Provider[] = [PresenceQueries];
