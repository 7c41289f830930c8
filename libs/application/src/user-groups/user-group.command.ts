import { Command } from '@nestjs/cqrs';
import type { UserGroupSettingChange, UserGroupSettingName, UserGroupSettingValue } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/** POST /user_groups/create (add_user_group): answers the new group's id. */
export class CreateUserGroupCommand extends Command<{ groupId: number }> {
  constructor(
    readonly context: CommandContext,
    readonly group: {
      name: string;
      description: string;
      members: number[];
      subgroups: number[];
      settings: Partial<Record<UserGroupSettingName, UserGroupSettingValue>>;
    },
  ) {
    super();
  }
}

/** PATCH /user_groups/{user_group_id} (edit_user_group). */
export class UpdateUserGroupCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly groupId: number,
    readonly changes: {
      name?: string;
      description?: string;
      settings: Partial<Record<UserGroupSettingName, UserGroupSettingChange>>;
      deactivated?: boolean;
    },
  ) {
    super();
  }
}

/** POST /user_groups/{user_group_id}/members (update_user_group_backend). */
export class UpdateUserGroupMembersCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly groupId: number,
    readonly changes: { add: number[]; delete: number[]; addSubgroups: number[]; deleteSubgroups: number[] },
  ) {
    super();
  }
}

/** POST /user_groups/{user_group_id}/subgroups (update_subgroups_of_user_group). */
export class UpdateUserGroupSubgroupsCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly groupId: number,
    readonly changes: { add: number[]; delete: number[] },
  ) {
    super();
  }
}

/** POST /user_groups/{user_group_id}/deactivate (deactivate_user_group). */
export class DeactivateUserGroupCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly groupId: number,
  ) {
    super();
  }
}
