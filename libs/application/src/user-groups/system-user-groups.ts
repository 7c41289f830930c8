import { SYSTEM_GROUP_NAMES, SYSTEM_GROUP_STRUCTURE, type SystemGroupName } from '@app/domain';
import type { UserDocument } from '../users/user.documents';

/** A user group as GET /user_groups returns it (zerver/lib/user_groups.py UserGroupDict). */
export type UserGroupView = {
  id: number;
  name: SystemGroupName;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  creator_id: number | null;
  date_created: number | null;
  is_system_group: boolean;
  can_add_members_group: number;
  can_join_group: number;
  can_leave_group: number;
  can_manage_group: number;
  can_mention_group: number;
  can_remove_members_group: number;
  deactivated: boolean;
};

/** create_system_user_groups_for_realm's descriptions (the groups' structure: SYSTEM_GROUP_STRUCTURE in the domain). */
const DESCRIPTIONS: Record<SystemGroupName, string> = {
  'role:owners': 'Owners of this organization',
  'role:administrators': 'Administrators of this organization, including owners',
  'role:moderators': 'Moderators of this organization, including administrators',
  'role:fullmembers': 'Members of this organization, not including new accounts and guests',
  'role:members': 'Members of this organization, not including guests',
  'role:everyone': 'Everyone in this organization, including guests',
  'role:internet': 'Everyone on the Internet',
  'role:nobody': 'Nobody',
};

/**
 * The organization's system groups as user_groups_in_realm_serialized returns them, sorted by id.
 * `users`: the organization's accounts (deactivated ones are left out, as Zulip counts only active
 * users as members). System groups are never deactivated, so include_deactivated_groups changes nothing.
 */
export function systemUserGroups(users: UserDocument[], ids: Record<SystemGroupName, number>): UserGroupView[] {
  const active = users.filter((u) => u.is_active);
  const nobody = ids['role:nobody'];
  return SYSTEM_GROUP_NAMES.map((name): UserGroupView => {
    const { directRoles, directSubgroup: subgroup } = SYSTEM_GROUP_STRUCTURE[name];
    return {
      id: ids[name],
      name,
      description: DESCRIPTIONS[name],
      members: active.filter((u) => directRoles.includes(u.role_name)).map((u) => u.user_id).sort((a, b) => a - b),
      direct_subgroup_ids: subgroup ? [ids[subgroup]] : [],
      creator_id: null,
      date_created: null,
      is_system_group: true,
      // GROUP_PERMISSION_SETTINGS default_for_system_groups: role:nobody for every setting.
      can_add_members_group: nobody,
      can_join_group: nobody,
      can_leave_group: nobody,
      can_manage_group: nobody,
      can_mention_group: nobody,
      can_remove_members_group: nobody,
      deactivated: false,
    };
  }).sort((a, b) => a.id - b.id);
}
