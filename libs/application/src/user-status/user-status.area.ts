import { USER_STATUS_EVENT_TYPES, userStatusDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { UserStatusClientEvents } from './user-status.client-events';
import { UserStatusRegisterSections } from './user-status.register';
import type { Provider } from '@nestjs/common';
import { CustomEmojiLookup, ReadModelCustomEmojiLookup } from './custom-emoji.lookup';
import { UpdateUserStatusHandler } from './update-user-status.handler';
import { UserStatusQueries } from './user-status.queries';

const handlers: Provider[] = [UpdateUserStatusHandler];
const queries: Provider[] = [UserStatusQueries, { provide: CustomEmojiLookup, useClass: ReadModelCustomEmojiLookup }];

/** Users' statuses (away, status text and emoji). */
export const userStatusArea = defineArea({
  name: 'user-status',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: UserStatusClientEvents,
  registerSections: UserStatusRegisterSections,
  deciders: [userStatusDecider],
  events: USER_STATUS_EVENT_TYPES,
});
