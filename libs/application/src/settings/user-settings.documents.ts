import type { UserSettingValues } from '@app/domain';

/**
 * One user's personal settings (id `<userId>`): only those the user (or an administrator) changed
 * away from Zulip's defaults. No document for a user whose settings are all at their defaults; the
 * time zone is the users read model's. UserSettingsQueries merges the defaults back in.
 */
export type UserSettingsDocument = Partial<Omit<UserSettingValues, 'timezone'>> & { user_id: number; realm_id: number };

/**
 * A pending change of address (id = the SHA-256 of its confirmation key), from `PATCH /settings`
 * `email` until `GET /accounts/confirm_new_email/<key>` confirms it (Zulip's EmailChangeStatus).
 * The key itself is nowhere but in the mail.
 */
export type EmailChangeDocument = {
  key_digest: string;
  user_id: number;
  realm_id: number;
  old_email: string;
  new_email: string;
  /** ISO time after which the link no longer works. */
  expires_at: string;
  status: 'pending' | 'used' | 'revoked';
};

export const USER_SETTINGS_COLLECTION = 'user_settings';
export const EMAIL_CHANGES = 'email_changes';
