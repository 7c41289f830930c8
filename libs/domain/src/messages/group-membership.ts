import type { Role } from '../shared/actor';
import { type GroupSetting, isSystemGroupMember } from '../shared/system-groups';

/** Whether a user belongs to a group setting's group (user_has_permission_for_group_setting, without user groups). */
export function isInGroupSetting(user: { userId: number; role: Role }, setting: GroupSetting): boolean {
  if ('system' in setting) return isSystemGroupMember(setting.system, user.role);
  return setting.direct_members.includes(user.userId) || setting.direct_subgroups.some((g) => isSystemGroupMember(g, user.role));
}
