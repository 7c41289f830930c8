import type { Role } from '../shared/actor';

/**
 * Zulip's group-setting values for channel permissions (Stream.stream_permission_group_settings),
 * kept symbolically: a system group by name, or an anonymous group of users (and system groups).
 * The integer ids the API shows for system groups belong to the user-groups area and are resolved
 * when a channel is formatted for a client.
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

/** The channel permission settings of Zulip's stream objects. */
export const CHANNEL_GROUP_SETTING_NAMES = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;
export type ChannelGroupSettingName = (typeof CHANNEL_GROUP_SETTING_NAMES)[number];
export type ChannelGroupSettings = Record<ChannelGroupSettingName, GroupSetting>;

/**
 * Zulip's defaults (Stream.stream_permission_group_settings default_group_name): the creator
 * administers the channel through an anonymous group holding only them ("channel_creator"), or
 * nobody when the channel has no creator; administrators remove subscribers; everyone may post and
 * start topics; nothing else is granted beyond the organization-level permissions.
 */
export function defaultChannelGroupSettings(creatorId: number | null): ChannelGroupSettings {
  const nobody: GroupSetting = { system: 'role:nobody' };
  return {
    can_add_subscribers_group: nobody,
    can_administer_channel_group: creatorId === null ? nobody : { direct_members: [creatorId], direct_subgroups: [] },
    can_create_topic_group: { system: 'role:everyone' },
    can_delete_any_message_group: nobody,
    can_delete_own_message_group: nobody,
    can_move_messages_out_of_channel_group: nobody,
    can_move_messages_within_channel_group: nobody,
    can_remove_subscribers_group: { system: 'role:administrators' },
    can_resolve_topics_group: nobody,
    can_send_message_group: { system: 'role:everyone' },
    can_subscribe_group: nobody,
  };
}
