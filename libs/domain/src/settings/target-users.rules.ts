import type { Role } from '../shared/actor';
import { isSystemGroupMember, type SystemGroupName } from '../shared/system-groups';

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
