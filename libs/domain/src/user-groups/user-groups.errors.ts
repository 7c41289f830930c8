import { DomainError } from '../shared/domain-error';
export { InsufficientPermissionError } from '../users/users.errors';
export { InvalidUserIdError, InvalidUserGroupIdError } from '../settings/settings.errors';

/** check_user_group_name. */
export class InvalidUserGroupNameError extends DomainError {
  static empty = () => new InvalidUserGroupNameError("User group name can't be empty!");
  static tooLong = (limit: number) => new InvalidUserGroupNameError(`User group name cannot exceed ${limit} characters.`);
  static invalidPrefix = (prefix: string) => new InvalidUserGroupNameError(`User group name cannot start with '${prefix}'.`);
}

/** check_add_user_group / do_update_user_group_name: the name is taken in this organization. */
export class UserGroupNameInUseError extends DomainError {
  constructor(name: string) {
    super(`User group '${name}' already exists.`);
  }
}

/**
 * A new group's id is one the organization's groups already hold: the `user_group` sequence is
 * behind the log (no Zulip counterpart; ids there come from the database). Refused so that the
 * existing group is never overwritten.
 */
export class UserGroupIdInUseError extends DomainError {
  constructor(groupId: number) {
    super(`User group id ${groupId} is already in use.`);
  }
}

/** A deactivated group cannot be a subgroup or a setting's value. */
export class UserGroupDeactivatedError extends DomainError {
  constructor() {
    super('User group is deactivated.');
  }
}

/** check_setting_configuration_for_system_groups. */
export class UserGroupSettingNotAllowedError extends DomainError {
  constructor(setting: string, group: string) {
    super(`'${setting}' setting cannot be set to '${group}' group.`);
  }
}

export class NoNewDataError extends DomainError {
  constructor() {
    super('No new data supplied');
  }
}

/** update_user_group_backend / update_subgroups_of_user_group with nothing to add or delete. */
export class NothingToDoError extends DomainError {
  static members = () => new NothingToDoError('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  static subgroups = () => new NothingToDoError('Nothing to do. Specify at least one of "add" or "delete".');
}

export class UserAlreadyMemberError extends DomainError {
  constructor(userId: number) {
    super(`User ${userId} is already a member of this group`);
  }
}

export class UserNotMemberError extends DomainError {
  constructor(userId: number) {
    super(`There is no member '${userId}' in this user group`);
  }
}

export class AlreadySubgroupError extends DomainError {
  constructor(groupId: number) {
    super(`User group ${groupId} is already a subgroup of this group.`);
  }
}

export class NotSubgroupError extends DomainError {
  constructor(groupId: number) {
    super(`User group ${groupId} is not a subgroup of this group.`);
  }
}

/** Adding these subgroups would make a cycle. */
export class SubgroupCycleError extends DomainError {
  constructor(groupId: number) {
    super(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
  }
}

/** A PATCH setting value that is not a GroupSettingChangeRequest ({new, old}). */
export class GroupSettingFormatError extends DomainError {
  constructor(setting: string) {
    super(`${setting} does not have the expected format`);
  }
}

export type DeactivationObjection =
  | { type: 'user_group'; group_id: number; settings: string[] }
  | { type: 'subgroup'; supergroup_ids: number[] };

/** CannotDeactivateGroupInUseError, with what still uses the group. */
export class CannotDeactivateGroupInUseError extends DomainError {
  constructor(objections: DeactivationObjection[]) {
    super('Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE', 400, { objections });
  }
}

/** check_user_group_mention_allowed: the sender is not in the group's can_mention_group. */
export class UserGroupMentionNotAllowedError extends DomainError {
  constructor(name: string) {
    super(`You are not allowed to mention user group '${name}'.`);
  }
}
