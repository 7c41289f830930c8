import type { UserGroupSettingName, UserGroupSettingValue } from './user-groups.settings';

/** AuditLogEventType.USER_GROUP_CREATED (check_add_user_group, create_user_group_in_database). */
export type UserGroupCreated = {
  type: 'UserGroupCreated';
  data: {
    realmId: number;
    groupId: number;
    name: string;
    description: string;
    /** Direct members, ascending. */
    members: number[];
    /** Direct subgroups, ascending. */
    subgroupIds: number[];
    /** Every permission setting, Zulip's defaults filled in ("group_creator": the creator alone). */
    settings: Record<UserGroupSettingName, UserGroupSettingValue>;
    creatorId: number | null;
    at: string;
  };
};

/** USER_GROUP_NAME_CHANGED (do_update_user_group_name). */
export type UserGroupNameChanged = {
  type: 'UserGroupNameChanged';
  data: { realmId: number; groupId: number; oldName: string; newName: string; actorId: number | null; at: string };
};

/** USER_GROUP_DESCRIPTION_CHANGED (do_update_user_group_description). */
export type UserGroupDescriptionChanged = {
  type: 'UserGroupDescriptionChanged';
  data: { realmId: number; groupId: number; oldDescription: string; newDescription: string; actorId: number | null; at: string };
};

/** USER_GROUP_GROUP_BASED_SETTING_CHANGED (do_change_user_group_permission_setting). */
export type UserGroupSettingChanged = {
  type: 'UserGroupSettingChanged';
  data: {
    realmId: number;
    groupId: number;
    setting: UserGroupSettingName;
    oldValue: UserGroupSettingValue;
    newValue: UserGroupSettingValue;
    actorId: number | null;
    at: string;
  };
};

/** USER_GROUP_DIRECT_USER_MEMBERSHIP_ADDED (bulk_add_members_to_user_groups). */
export type UserGroupMembersAdded = {
  type: 'UserGroupMembersAdded';
  data: { realmId: number; groupId: number; userIds: number[]; actorId: number | null; at: string };
};

/** USER_GROUP_DIRECT_USER_MEMBERSHIP_REMOVED (bulk_remove_members_from_user_groups). */
export type UserGroupMembersRemoved = {
  type: 'UserGroupMembersRemoved';
  data: { realmId: number; groupId: number; userIds: number[]; actorId: number | null; at: string };
};

/** USER_GROUP_DIRECT_SUBGROUP_MEMBERSHIP_ADDED (add_subgroups_to_user_group). */
export type UserGroupSubgroupsAdded = {
  type: 'UserGroupSubgroupsAdded';
  data: { realmId: number; groupId: number; subgroupIds: number[]; actorId: number | null; at: string };
};

/** USER_GROUP_DIRECT_SUBGROUP_MEMBERSHIP_REMOVED (remove_subgroups_from_user_group). */
export type UserGroupSubgroupsRemoved = {
  type: 'UserGroupSubgroupsRemoved';
  data: { realmId: number; groupId: number; subgroupIds: number[]; actorId: number | null; at: string };
};

/** USER_GROUP_DEACTIVATED (do_deactivate_user_group). */
export type UserGroupDeactivated = {
  type: 'UserGroupDeactivated';
  data: { realmId: number; groupId: number; actorId: number | null; at: string };
};

/** USER_GROUP_REACTIVATED (PATCH /user_groups/{id} with deactivated=false). */
export type UserGroupReactivated = {
  type: 'UserGroupReactivated';
  data: { realmId: number; groupId: number; actorId: number | null; at: string };
};

export type UserGroupEvent =
  | UserGroupCreated
  | UserGroupNameChanged
  | UserGroupDescriptionChanged
  | UserGroupSettingChanged
  | UserGroupMembersAdded
  | UserGroupMembersRemoved
  | UserGroupSubgroupsAdded
  | UserGroupSubgroupsRemoved
  | UserGroupDeactivated
  | UserGroupReactivated;

export const USER_GROUP_EVENT_TYPES: readonly UserGroupEvent['type'][] = [
  'UserGroupCreated',
  'UserGroupNameChanged',
  'UserGroupDescriptionChanged',
  'UserGroupSettingChanged',
  'UserGroupMembersAdded',
  'UserGroupMembersRemoved',
  'UserGroupSubgroupsAdded',
  'UserGroupSubgroupsRemoved',
  'UserGroupDeactivated',
  'UserGroupReactivated',
];
