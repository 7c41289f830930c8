import type { Role } from '../shared/actor';

/**
 * Zulip's system groups (role:everyone, …) and group-setting values, kept symbolically: a system
 * group by name, or an anonymous group of users (and system groups). Channel permissions
 * (channels/channel-group-settings.ts), organization permissions (realms) and user groups use them;
 * the integer ids the API shows for system groups belong to the user-groups area and are resolved
 * when an object is formatted for a client.
 */
export const SYSTEM_GROUP_NAMES = [
  // Zulip's SystemGroups, in the order create_system_user_groups_for_realm creates them.
  'role:owners',
  'role:administrators',
  'role:moderators',
  'role:fullmembers',
  'role:members',
  'role:everyone',
  'role:internet',
  'role:nobody',
] as const;
export type SystemGroupName = (typeof SYSTEM_GROUP_NAMES)[number];

/**
 * The one table of the system groups' structure (Zulip's create_system_user_groups_for_realm and
 * NamedUserGroup.SYSTEM_USER_GROUP_ROLE_MAP): each group's direct members by role
 * (get_system_user_group_for_user; members are also direct members of role:fullmembers, as
 * organizations here have no waiting period) and its one direct subgroup, the chain owners ⊂
 * administrators ⊂ moderators ⊂ fullmembers ⊂ members ⊂ everyone ⊂ internet; nobody stands alone.
 */
export const SYSTEM_GROUP_STRUCTURE: Readonly<Record<SystemGroupName, { directRoles: readonly Role[]; directSubgroup: SystemGroupName | null }>> = {
  'role:owners': { directRoles: ['owner'], directSubgroup: null },
  'role:administrators': { directRoles: ['administrator'], directSubgroup: 'role:owners' },
  'role:moderators': { directRoles: ['moderator'], directSubgroup: 'role:administrators' },
  'role:fullmembers': { directRoles: ['member'], directSubgroup: 'role:moderators' },
  'role:members': { directRoles: ['member'], directSubgroup: 'role:fullmembers' },
  'role:everyone': { directRoles: ['guest'], directSubgroup: 'role:members' },
  'role:internet': { directRoles: [], directSubgroup: 'role:everyone' },
  'role:nobody': { directRoles: [], directSubgroup: null },
};

/** The roles a system group holds, counting its subgroups (administrators include owners, members everyone but guests). */
export function systemGroupRoles(group: SystemGroupName): Role[] {
  const roles: Role[] = [];
  for (let g: SystemGroupName | null = group; g !== null; g = SYSTEM_GROUP_STRUCTURE[g].directSubgroup) roles.push(...SYSTEM_GROUP_STRUCTURE[g].directRoles);
  return [...new Set(roles)];
}

const SYSTEM_GROUP_ROLES = new Map<SystemGroupName, readonly Role[]>(SYSTEM_GROUP_NAMES.map((name) => [name, systemGroupRoles(name)]));

export const isSystemGroupMember = (group: SystemGroupName, role: Role): boolean => SYSTEM_GROUP_ROLES.get(group)?.includes(role) ?? false;

export type GroupSetting =
  | { system: SystemGroupName }
  | { direct_members: number[]; direct_subgroups: SystemGroupName[] };
