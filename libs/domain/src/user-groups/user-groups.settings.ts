import type { SystemGroupName } from '../shared/system-groups';

/**
 * A user group's permission settings (NamedUserGroup.GROUP_PERMISSION_SETTINGS, Zulip 10+), in
 * Zulip's order, which is the order requests are checked in.
 */
export const USER_GROUP_SETTING_NAMES = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type UserGroupSettingName = (typeof USER_GROUP_SETTING_NAMES)[number];

/**
 * A setting's value as the API shows it: a user group id (system or named), or an anonymous group
 * of users and groups (`{direct_members, direct_subgroups}`, both ascending).
 */
export type AnonymousGroup = { direct_members: number[]; direct_subgroups: number[] };
export type UserGroupSettingValue = number | AnonymousGroup;

type SettingConfig = {
  /** default_group_name: a system group, or "group_creator" (an anonymous group of the creator). */
  defaultGroup: SystemGroupName | 'group_creator';
  /** allow_everyone_group (allow_internet_group is false and allow_nobody_group true for all of them). */
  allowEveryone: boolean;
};

export const USER_GROUP_SETTINGS: Record<UserGroupSettingName, SettingConfig> = {
  can_add_members_group: { defaultGroup: 'group_creator', allowEveryone: false },
  can_join_group: { defaultGroup: 'role:nobody', allowEveryone: false },
  can_leave_group: { defaultGroup: 'role:everyone', allowEveryone: true },
  can_manage_group: { defaultGroup: 'group_creator', allowEveryone: false },
  can_mention_group: { defaultGroup: 'role:everyone', allowEveryone: true },
  can_remove_members_group: { defaultGroup: 'role:nobody', allowEveryone: false },
};

const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** An anonymous group with its lists deduplicated and ascending, as stored and shown. */
export const normalizedAnonymousGroup = (value: AnonymousGroup): AnonymousGroup => ({
  direct_members: ascending(value.direct_members),
  direct_subgroups: ascending(value.direct_subgroups),
});

/** Whether two setting values name the same group (anonymous groups compare by content). */
export function sameSettingValue(a: UserGroupSettingValue, b: UserGroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const x = normalizedAnonymousGroup(a);
  const y = normalizedAnonymousGroup(b);
  return JSON.stringify(x) === JSON.stringify(y);
}

/** The ids of groups a setting value names (itself, or an anonymous group's subgroups). */
export const groupsNamedBy = (value: UserGroupSettingValue): number[] => (typeof value === 'number' ? [value] : value.direct_subgroups);
