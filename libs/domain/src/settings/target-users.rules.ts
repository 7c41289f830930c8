import type { Role } from '../shared/actor';
import type { SystemGroupName } from '../channels/channel-group-settings';

/**
 * Who belongs to each system group (Zulip's role-based groups, recursive: administrators include
 * owners, members include everyone but guests). Organizations here have no waiting period, so
 * every member is a full member.
 */
const GROUP_ROLES: Record<SystemGroupName, readonly Role[]> = {
  'role:owners': ['owner'],
  'role:administrators': ['owner', 'administrator'],
  'role:moderators': ['owner', 'administrator', 'moderator'],
  'role:fullmembers': ['owner', 'administrator', 'moderator', 'member'],
  'role:members': ['owner', 'administrator', 'moderator', 'member'],
  'role:everyone': ['owner', 'administrator', 'moderator', 'member', 'guest'],
  'role:internet': ['owner', 'administrator', 'moderator', 'member', 'guest'],
  'role:nobody': [],
};

export const isSystemGroupMember = (group: SystemGroupName, role: Role): boolean => GROUP_ROLES[group].includes(role);

export type TargetAccount = { userId: number; role: Role; isActive: boolean; isBot: boolean };

/**
 * json_change_settings `target_users`: the listed users (deactivated ones too, so that the right
 * thing happens if they come back) and the active members of the listed groups, bots left out
 * ("user settings do not apply to bots"), each once, by id.
 */
export function resolveTargetUsers(accounts: TargetAccount[], userIds: number[], groups: SystemGroupName[]): number[] {
  const listed = new Set(userIds);
  const chosen = accounts.filter(
    (a) => !a.isBot && (listed.has(a.userId) || (a.isActive && groups.some((g) => isSystemGroupMember(g, a.role)))),
  );
  return [...new Set(chosen.map((a) => a.userId))].sort((a, b) => a - b);
}
