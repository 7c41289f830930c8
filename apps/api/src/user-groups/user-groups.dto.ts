import type { UserGroupSettingValue } from '@app/domain';
import { type Shape, shapes } from '../http/params/json-shapes';
import { BoolParam, JsonParam, StringParam } from '../http/params/param.decorators';

/** A group-setting value: a user group id, or an anonymous group `{"direct_members": [...], "direct_subgroups": [...]}`. */
export const groupSettingValue: Shape<UserGroupSettingValue> = shapes.union<UserGroupSettingValue>(
  shapes.int(),
  shapes.object<{ direct_members: number[]; direct_subgroups: number[] }>({
    direct_members: shapes.list(shapes.int()),
    direct_subgroups: shapes.list(shapes.int()),
  }),
);

const setting = (what: string) =>
  `${what}: a user group id or {"direct_members": [user ids], "direct_subgroups": [group ids]}.`;
const change = (what: string) => `${what}: {"new": <group setting value>, "old": <expected current value>} ("old" optional).`;
const ids = (what: string) => JsonParam(shapes.list(shapes.int()), { optional: true, description: what });

/** POST /user_groups/create (add_user_group). */
export class CreateUserGroupDto {
  @StringParam({ description: 'The group\'s name: unique in the organization, at most 100 characters, not starting with "@", "role:", "user:", "stream:" or "channel:".' })
  name!: string;

  @StringParam({ description: 'The group\'s description.' })
  description!: string;

  @JsonParam(shapes.list(shapes.int()), { description: 'Ids of the users to add as direct members (required, may be empty).' })
  members!: number[];

  @JsonParam(shapes.list(shapes.int()), { optional: true, description: 'Ids of the groups to add as direct subgroups (default none).' })
  subgroups?: number[];

  @JsonParam(groupSettingValue, { optional: true, description: setting('Who may add others to the group (default: the creator)') })
  can_add_members_group?: UserGroupSettingValue;

  @JsonParam(groupSettingValue, { optional: true, description: setting('Who may join the group themselves (default role:nobody)') })
  can_join_group?: UserGroupSettingValue;

  @JsonParam(groupSettingValue, { optional: true, description: setting('Who may leave the group themselves (default role:everyone)') })
  can_leave_group?: UserGroupSettingValue;

  @JsonParam(groupSettingValue, { optional: true, description: setting('Who may manage the group (default: the creator)') })
  can_manage_group?: UserGroupSettingValue;

  @JsonParam(groupSettingValue, { optional: true, description: setting('Who may mention the group (default role:everyone)') })
  can_mention_group?: UserGroupSettingValue;

  @JsonParam(groupSettingValue, { optional: true, description: setting('Who may remove others from the group (default role:nobody)') })
  can_remove_members_group?: UserGroupSettingValue;
}

/** PATCH /user_groups/{user_group_id} (edit_user_group). Settings are checked for their {new, old} form by the controller. */
export class UpdateUserGroupDto {
  @StringParam({ optional: true, description: 'New name.' })
  name?: string;

  @StringParam({ optional: true, description: 'New description.' })
  description?: string;

  @BoolParam({ optional: true, description: 'false reactivates a deactivated group; true changes nothing (POST /user_groups/{id}/deactivate deactivates).' })
  deactivated?: boolean;

  @JsonParam(shapes.any(), { optional: true, description: change('Who may add others to the group') })
  can_add_members_group?: unknown;

  @JsonParam(shapes.any(), { optional: true, description: change('Who may join the group') })
  can_join_group?: unknown;

  @JsonParam(shapes.any(), { optional: true, description: change('Who may leave the group') })
  can_leave_group?: unknown;

  @JsonParam(shapes.any(), { optional: true, description: change('Who may manage the group') })
  can_manage_group?: unknown;

  @JsonParam(shapes.any(), { optional: true, description: change('Who may mention the group') })
  can_mention_group?: unknown;

  @JsonParam(shapes.any(), { optional: true, description: change('Who may remove others from the group') })
  can_remove_members_group?: unknown;
}

/** POST /user_groups/{user_group_id}/members (update_user_group_backend). */
export class UpdateUserGroupMembersDto {
  @ids('Ids of users to add as direct members.')
  add?: number[];

  @ids('Ids of direct members to remove.')
  delete?: number[];

  @ids('Ids of groups to add as direct subgroups.')
  add_subgroups?: number[];

  @ids('Ids of direct subgroups to remove.')
  delete_subgroups?: number[];
}

/** POST /user_groups/{user_group_id}/subgroups (update_subgroups_of_user_group). */
export class UpdateUserGroupSubgroupsDto {
  @ids('Ids of groups to add as direct subgroups.')
  add?: number[];

  @ids('Ids of direct subgroups to remove.')
  delete?: number[];
}

/** GET /user_groups (get_user_groups). */
export class GetUserGroupsDto {
  @BoolParam({ optional: true, description: 'Default false: list deactivated groups too.' })
  include_deactivated_groups?: boolean;
}

/** GET /user_groups/{id}/members and /members/{user_id}. */
export class GetUserGroupMembersDto {
  @BoolParam({ optional: true, description: 'Default false: members through subgroups count too; true: direct members only.' })
  direct_member_only?: boolean;
}

/** GET /user_groups/{id}/subgroups. */
export class GetUserGroupSubgroupsDto {
  @BoolParam({ optional: true, description: 'Default false: every group below; true: direct subgroups only.' })
  direct_subgroup_only?: boolean;
}
