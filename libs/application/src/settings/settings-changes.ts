import type { SettingProperty, SettingValue } from '@app/domain';

/** What one `PATCH /settings` asks for, parsed. `settings` may include `timezone`. */
export type SettingsChanges = {
  settings: Partial<Record<SettingProperty, SettingValue>>;
  fullName?: string;
  email?: string;
  oldPassword?: string;
  newPassword?: string;
};

/** `target_users` (TargetUsersData). */
export type TargetUsers = { userIds: number[]; groupIds: number[]; skipIfAlreadyEdited: boolean };

export const settingEntries = (settings: SettingsChanges['settings']): { property: SettingProperty; value: SettingValue }[] =>
  (Object.entries(settings) as [SettingProperty, SettingValue | undefined][])
    .filter((entry): entry is [SettingProperty, SettingValue] => entry[1] !== undefined)
    .map(([property, value]) => ({ property, value }));
