import type { UserSettingValues } from '@app/domain';

/**
 * One user's personal settings (id `<userId>`): only those the user (or an administrator) changed
 * away from Zulip's defaults. No document for a user whose settings are all at their defaults; the
 * time zone is the users read model's. UserSettingsQueries merges the defaults back in.
 */
export type UserSettingsDocument = Partial<Omit<UserSettingValues, 'timezone'>> & { user_id: number; realm_id: number };

/**
 * A pending change of address (id = the confirmation token), from `PATCH /settings` `email`
 * until `GET /accounts/confirm_new_email/<token>` confirms it (Zulip's EmailChangeStatus).
 */
export type EmailChangeDocument = {
  token: string;
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
