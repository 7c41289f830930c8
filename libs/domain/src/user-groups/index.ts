export * from './user-groups.streams';
export * from './user-groups.settings';
export * from './user-groups.events';
export {
  AlreadySubgroupError, CannotDeactivateGroupInUseError, type DeactivationObjection, GroupSettingFormatError, InvalidUserGroupNameError, NoNewDataError,
  NothingToDoError, NotSubgroupError, SubgroupCycleError, UserAlreadyMemberError, UserGroupDeactivatedError, UserGroupMentionNotAllowedError,
  UserGroupIdInUseError, UserGroupNameInUseError, UserGroupSettingNotAllowedError, UserNotMemberError,
} from './user-groups.errors';
export * from './user-groups.rules';
export * from './user-groups.graph';
export * from './user-groups.decider';
