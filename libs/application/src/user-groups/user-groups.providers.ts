import {
  CreateUserGroupHandler,
  DeactivateUserGroupHandler,
  UpdateUserGroupHandler,
  UpdateUserGroupMembersHandler,
  UpdateUserGroupSubgroupsHandler,
  UserGroupsWriter,
} from './user-group.handler';
import { UserGroupQueries } from './user-group.queries';

export const USER_GROUPS_HANDLERS = [
  UserGroupsWriter,
  CreateUserGroupHandler,
  UpdateUserGroupHandler,
  UpdateUserGroupMembersHandler,
  UpdateUserGroupSubgroupsHandler,
  DeactivateUserGroupHandler,
];
export const USER_GROUPS_QUERIES = [UserGroupQueries];
