import { MUTED_USER_EVENT_TYPES, mutedUsersDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { MutedUsersClientEvents } from './muted-users.client-events';
import { MutedUsersRegisterSections } from './muted-users.register';
import type { Provider } from '@nestjs/common';
import { MuteUserHandler, UnmuteUserHandler } from './mute-user.handler';
import { MutedUserQueries } from './muted-user.queries';

const handlers: Provider[] = [MuteUserHandler, UnmuteUserHandler];
const queries: Provider[] = [MutedUserQueries];

/** A user's muted users. */
export const mutedUsersArea = defineArea({
  name: 'muted-users',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: MutedUsersClientEvents,
  registerSections: MutedUsersRegisterSections,
  deciders: [mutedUsersDecider],
  events: MUTED_USER_EVENT_TYPES,
});
