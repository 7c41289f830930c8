import type { UserGroupSettingName, UserGroupSettingValue } from '@app/domain';

/**
 * A named user group as Zulip's UserGroupDict describes it (zerver/lib/user_groups.py
 * user_groups_in_realm_serialized), plus `realm_id`. `members` keeps every direct member,
 * deactivated users included; the API leaves deactivated users out when it answers.
 */
export type UserGroupDocument = {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  creator_id: number | null;
  /** Seconds since the epoch. */
  date_created: number | null;
  is_system_group: false;
  deactivated: boolean;
} & Record<UserGroupSettingName, UserGroupSettingValue>;

/** A group (system or named) as GET /user_groups, realm_user_groups and `user_group` events show it. */
export type ApiUserGroup = {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  creator_id: number | null;
  date_created: number | null;
  is_system_group: boolean;
  deactivated: boolean;
} & Record<UserGroupSettingName, UserGroupSettingValue>;

export const USER_GROUPS = 'user_groups';
