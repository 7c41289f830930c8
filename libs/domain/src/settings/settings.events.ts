import type { SettingProperty, SettingValue } from './settings.catalog';

/**
 * AuditLogEventType.USER_SETTING_CHANGED (do_change_user_setting): one setting of one user.
 * `editedBySelf` (the user changed it, not an administrator for them) is what
 * `skip_if_already_edited` looks for.
 */
export type UserSettingChanged = {
  type: 'UserSettingChanged';
  data: {
    realmId: number;
    userId: number;
    property: SettingProperty;
    oldValue: SettingValue;
    newValue: SettingValue;
    actorId: number | null;
    editedBySelf: boolean;
    /**
     * email_address_visibility only: the address `email` shows while the setting is not
     * "everyone" (`user<id>@<fake email domain>`, get_display_email_address), fixed when decided
     * because the domain comes from the server's configuration.
     */
    dummyEmail?: string;
    at: string;
  };
};

/**
 * do_start_email_change_process: a change of address waits for the link mailed to the new address.
 * A new request revokes the pending one (`revokedKeyDigests`). The confirmation key is a secret and
 * is not here: `keyDigest` is its SHA-256 (hex), which identifies the link without opening it.
 * (Version 1 carried the key itself as `token`; upcast to its digest.)
 */
export type EmailChangeRequested = {
  type: 'EmailChangeRequested';
  data: {
    realmId: number;
    userId: number;
    oldEmail: string;
    newEmail: string;
    keyDigest: string;
    expiresAt: string;
    revokedKeyDigests: string[];
    actorId: number | null;
    at: string;
  };
};

/** The link was followed; the users stream records the new address (UserEmailChanged). */
export type EmailChangeConfirmed = {
  type: 'EmailChangeConfirmed';
  data: { realmId: number; userId: number; keyDigest: string; oldEmail: string; newEmail: string; at: string };
};

export type UserSettingsEvent = UserSettingChanged | EmailChangeRequested | EmailChangeConfirmed;

export const USER_SETTINGS_EVENT_TYPES: readonly UserSettingsEvent['type'][] = ['UserSettingChanged', 'EmailChangeRequested', 'EmailChangeConfirmed'];
