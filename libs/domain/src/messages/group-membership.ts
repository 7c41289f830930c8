import type { Role } from '../shared/actor';
import type { GroupSetting, SystemGroupName } from '../channels/channel-group-settings';

/** Which roles each system group holds (Zulip's create_system_user_groups_for_realm; no waiting period for full members). */
const SYSTEM_GROUP_ROLES: Record<SystemGroupName, readonly Role[]> = {
  'role:owners': ['owner'],
  'role:administrators': ['owner', 'administrator'],
  'role:moderators': ['owner', 'administrator', 'moderator'],
  'role:fullmembers': ['owner', 'administrator', 'moderator', 'member'],
  'role:members': ['owner', 'administrator', 'moderator', 'member'],
  'role:everyone': ['owner', 'administrator', 'moderator', 'member', 'guest'],
  'role:internet': ['owner', 'administrator', 'moderator', 'member', 'guest'],
  'role:nobody': [],
};

/** Whether a user belongs to a group setting's group (user_has_permission_for_group_setting, without user groups). */
export function isInGroupSetting(user: { userId: number; role: Role }, setting: GroupSetting): boolean {
  if ('system' in setting) return SYSTEM_GROUP_ROLES[setting.system].includes(user.role);
  return setting.direct_members.includes(user.userId) || setting.direct_subgroups.some((g) => SYSTEM_GROUP_ROLES[g].includes(user.role));
}
