import { SYSTEM_GROUP_NAMES, type SystemGroupName } from '../shared/system-groups';
import type { Role } from '../shared/actor';
import type { UserGroupSettingValue } from './user-groups.settings';

/**
 * Direct members of the system groups by role (get_system_user_group_for_user): each user is a
 * direct member of their role's group, and members also of role:fullmembers (no waiting period here).
 */
export const SYSTEM_GROUP_DIRECT_ROLES: Record<SystemGroupName, readonly Role[]> = {
  'role:owners': ['owner'],
  'role:administrators': ['administrator'],
  'role:moderators': ['moderator'],
  'role:fullmembers': ['member'],
  'role:members': ['member'],
  'role:everyone': ['guest'],
  'role:internet': [],
  'role:nobody': [],
};

/** Each system group's direct subgroup: owners ⊂ administrators ⊂ … ⊂ internet; nobody stands alone. */
export const SYSTEM_GROUP_DIRECT_SUBGROUP: Record<SystemGroupName, SystemGroupName | null> = {
  'role:owners': null,
  'role:administrators': 'role:owners',
  'role:moderators': 'role:administrators',
  'role:fullmembers': 'role:moderators',
  'role:members': 'role:fullmembers',
  'role:everyone': 'role:members',
  'role:internet': 'role:everyone',
  'role:nobody': null,
};

/** A named group as membership needs it. */
export type NamedGroupNode = { id: number; members: readonly number[]; subgroupIds: readonly number[]; deactivated: boolean };
export type GraphUser = { userId: number; role: Role; isActive: boolean };

/**
 * The groups of one organization as a graph (zerver/lib/user_groups.py's recursive CTEs): system
 * groups by their ids, with members derived from roles, and named groups with their direct members
 * and subgroups. Pure; both the decider (permissions) and the queries (members, mentions) use it.
 */
export class UserGroupGraph {
  private readonly named = new Map<number, NamedGroupNode>();
  private readonly systemById = new Map<number, SystemGroupName>();

  constructor(
    named: Iterable<NamedGroupNode>,
    readonly systemIds: Record<SystemGroupName, number>,
  ) {
    for (const group of named) this.named.set(group.id, group);
    for (const name of SYSTEM_GROUP_NAMES) this.systemById.set(systemIds[name], name);
  }

  has(groupId: number): boolean {
    return this.named.has(groupId) || this.systemById.has(groupId);
  }

  systemName(groupId: number): SystemGroupName | undefined {
    return this.systemById.get(groupId);
  }

  namedGroup(groupId: number): NamedGroupNode | undefined {
    return this.named.get(groupId);
  }

  isDeactivated(groupId: number): boolean {
    return this.named.get(groupId)?.deactivated === true;
  }

  directSubgroups(groupId: number): number[] {
    const system = this.systemById.get(groupId);
    if (system) {
      const sub = SYSTEM_GROUP_DIRECT_SUBGROUP[system];
      return sub ? [this.systemIds[sub]] : [];
    }
    return [...(this.named.get(groupId)?.subgroupIds ?? [])];
  }

  /** get_recursive_strict_subgroups: every group below this one (not itself), ascending. */
  recursiveSubgroups(groupId: number): number[] {
    const seen = new Set<number>();
    const queue = this.directSubgroups(groupId);
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (seen.has(id) || id === groupId) continue;
      seen.add(id);
      queue.push(...this.directSubgroups(id));
    }
    return [...seen].sort((a, b) => a - b);
  }

  /** The group and every group below it. */
  private withSubgroups(groupId: number): number[] {
    return [groupId, ...this.recursiveSubgroups(groupId)];
  }

  /** is_user_in_group: a user (active) is in the group or one of its subgroups, or directly only. */
  contains(user: { userId: number; role: Role }, groupId: number, directOnly = false): boolean {
    const isDirect = (id: number) => {
      const system = this.systemById.get(id);
      if (system) return SYSTEM_GROUP_DIRECT_ROLES[system].includes(user.role);
      return this.named.get(id)?.members.includes(user.userId) === true;
    };
    return directOnly ? isDirect(groupId) : this.withSubgroups(groupId).some(isDirect);
  }

  /** user_has_permission_for_group_setting: the user is in the group a setting names. */
  settingContains(user: { userId: number; role: Role }, value: UserGroupSettingValue): boolean {
    if (typeof value === 'number') return this.contains(user, value);
    return value.direct_members.includes(user.userId) || value.direct_subgroups.some((id) => this.contains(user, id));
  }

  /** Direct members among `users` (deactivated users are never members), ascending. */
  directMembers(groupId: number, users: readonly GraphUser[]): number[] {
    const system = this.systemById.get(groupId);
    if (system) return users.filter((u) => u.isActive && SYSTEM_GROUP_DIRECT_ROLES[system].includes(u.role)).map((u) => u.userId).sort((a, b) => a - b);
    const active = new Set(users.filter((u) => u.isActive).map((u) => u.userId));
    return [...new Set(this.named.get(groupId)?.members ?? [])].filter((id) => active.has(id)).sort((a, b) => a - b);
  }

  /** get_recursive_group_members: the active members of the group and of every group below it, ascending. */
  recursiveMembers(groupId: number, users: readonly GraphUser[]): number[] {
    const ids = new Set<number>();
    for (const id of this.withSubgroups(groupId)) for (const member of this.directMembers(id, users)) ids.add(member);
    return [...ids].sort((a, b) => a - b);
  }
}
