import type { Provider } from '@nestjs/common';
import { MuteUserHandler, UnmuteUserHandler } from './mute-user.handler';
import { MutedUserQueries } from './muted-user.queries';

/** The muted users area's handlers and queries, registered by ApplicationModule. */
export const MUTED_USERS_HANDLERS: Provider[] = [MuteUserHandler, UnmuteUserHandler];
export const MUTED_USERS_QUERIES: Provider[] = [MutedUserQueries];
