import type { Role } from '@app/domain';

/** A user as Zulip's `GET /users` returns it (zerver/lib/users.py format_user_row), plus `realm_id`. */
export type UserDocument = {
  user_id: number;
  realm_id: number;
  /** The address the API shows everyone: the real one, or `user<id>@<domain>` (email_address_visibility). */
  email: string;
  /** The real address (Zulip's delivery_email), shown only to whom the setting allows. */
  delivery_email: string;
  /** The user's email_address_visibility setting; absent: 1 ("everyone"), as for bots. */
  email_address_visibility?: number;
  full_name: string;
  date_joined: string;
  is_active: boolean;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  role: number;
  role_name: Role;
  timezone: string;
  avatar_version: number;
  is_billing_admin: boolean;
};

/**
 * What authentication looks up by email, kept apart from the user documents the API hands out.
 * No secret: the credential store's entries that hold the current API key and password hash.
 */
export type CredentialDocument = {
  user_id: number;
  realm_id: number;
  email_lower: string;
  /** The credential store's entry of the current API key (CredentialVault). */
  api_key_id: string;
  /** The credential store's entry of the current password hash; null for accounts without a password. */
  password_id: string | null;
};

/**
 * Zulip's system bots (is_system_bot, listed in `cross_realm_bots`, not among the organization's
 * users): bots owned by nobody, such as Notification Bot.
 */
export const isSystemBot = (user: Pick<UserDocument, 'is_bot' | 'bot_owner_id'>): boolean => user.is_bot && user.bot_owner_id === null;

export const USERS = 'users';
export const CREDENTIALS = 'credentials';
