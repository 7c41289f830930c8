import type { Provider } from '@nestjs/common';
import { NAMED_USER_GROUP_ID_BASE, USER_GROUP_EVENT_TYPES, userGroupsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { UserGroupsClientEvents } from './user-groups.client-events';
import { UserGroupsRegisterSections } from './user-groups.register';
import {
  CreateUserGroupHandler,
  DeactivateUserGroupHandler,
  UpdateUserGroupHandler,
  UpdateUserGroupMembersHandler,
  UpdateUserGroupSubgroupsHandler,
  UserGroupsWriter,
} from './user-group.handler';
import { UserGroupQueries } from './user-group.queries';

const handlers: Provider[] = [
  UserGroupsWriter,
  CreateUserGroupHandler,
  UpdateUserGroupHandler,
  UpdateUserGroupMembersHandler,
  UpdateUserGroupSubgroupsHandler,
  DeactivateUserGroupHandler,
];
const queries: Provider[] = [UserGroupQueries];

/** Named user groups. */
export const userGroupsArea = defineArea({
  name: 'user-groups',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: UserGroupsClientEvents,
  registerSections: UserGroupsRegisterSections,
  deciders: [userGroupsDecider],
  events: USER_GROUP_EVENT_TYPES,
  idSequences: [
    // A named group's id is NAMED_USER_GROUP_ID_BASE + n; the events name system groups (ids at
    // or below the base) by the same key, which the offset leaves out.
    { sequence: 'user_group', fields: ['groupId'], offset: NAMED_USER_GROUP_ID_BASE },
  ],
});
