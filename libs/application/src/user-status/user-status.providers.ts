import type { Provider } from '@nestjs/common';
import { CustomEmojiLookup, ReadModelCustomEmojiLookup } from './custom-emoji.lookup';
import { UpdateUserStatusHandler } from './update-user-status.handler';
import { UserStatusQueries } from './user-status.queries';

/** The user-status area's handlers, queries and seams, registered by ApplicationModule. */
export const USER_STATUS_HANDLERS: Provider[] = [UpdateUserStatusHandler];
export const USER_STATUS_QUERIES: Provider[] = [UserStatusQueries, { provide: CustomEmojiLookup, useClass: ReadModelCustomEmojiLookup }];
