import { type Actor, canAccessDeliveryEmail } from '@app/domain';
import type { UserDocument } from './user.documents';

/** A custom profile field value as Zulip sends it in `profile_data` (keyed by field id). */
export type ProfileDataValue = { value: string; rendered_value?: string };

/**
 * Zulip's user object (zerver/lib/users.py format_user_row, the `User` schema of
 * zerver/openapi/zulip.yaml), as `GET /users`, `GET /users/{user_id}` and `GET /users/me` return it.
 */
export type ApiUser = {
  email: string;
  user_id: number;
  avatar_version: number;
  is_admin: boolean;
  is_owner: boolean;
  is_guest: boolean;
  is_billing_admin: boolean;
  role: number;
  is_bot: boolean;
  full_name: string;
  /** Omitted for spectators (logged-out viewers). */
  timezone?: string;
  is_active: boolean;
  date_joined: string;
  delivery_email: string | null;
  is_imported_stub: boolean;
  avatar_url: string | null;
  /** Bots only. */
  bot_type?: number | null;
  /** Bots only. */
  bot_owner_id?: number | null;
  /** Humans only, when custom profile fields were asked for. */
  profile_data?: Record<string, ProfileDataValue>;
};

/** `GET /users/me` adds the (deprecated) id of the newest message the user has received. */
export type ApiOwnUser = ApiUser & { max_message_id?: number };

export type FormatUserOptions = {
  /** Custom profile field values keyed by field id; included for humans when given. */
  profileData?: Record<string, ProfileDataValue>;
  /** URL of the user's avatar. Default: `/avatar/<user_id>` (Zulip's avatar redirect endpoint). */
  avatarUrl?: (user: UserDocument) => string | null;
};

const pad = (n: number) => String(n).padStart(2, '0');
/** "YYYY-MM-DD…" names a day of that month (a Date would roll "04-31" over to May 1st). */
function isCalendarDay(iso: string): boolean {
  const year = Number(iso.slice(0, 4));
  const month = Number(iso.slice(5, 7));
  const day = Number(iso.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31);
}
const ISO_UTC = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?Z$/;

/**
 * Python's `datetime.isoformat(timespec="minutes")` of an aware UTC time ("2026-01-01T09:30+00:00"),
 * which Zulip sends to logged-in viewers; spectators get only the date ("2026-01-01").
 */
function formatDateJoined(iso: string, forSpectator: boolean): string {
  // Stored times are Date#toISOString() text, whose digits already are the UTC fields: read
  // them without parsing a Date (a tenth of the cost, for every user of GET /users).
  if (ISO_UTC.test(iso) && isCalendarDay(iso)) return forSpectator ? iso.slice(0, 10) : `${iso.slice(0, 16)}+00:00`;
  const d = new Date(iso);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return forSpectator ? date : `${date}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}+00:00`;
}

/**
 * Whether `viewer` may see the target's real address (can_access_delivery_email): the account
 * itself, and the roles the target's email_address_visibility allows ("nobody": no one else, the
 * organization's owners included); the operator always. Spectators never.
 */
export const canSeeDeliveryEmail = (user: UserDocument, viewer: Actor | null): boolean =>
  viewer !== null && canAccessDeliveryEmail(viewer, user.user_id, user.email_address_visibility);

/**
 * The user object for the API, from a stored user document and the viewer (`null` for a
 * spectator). Only API fields are copied: read-model bookkeeping (`realm_id`, `role_name`) never
 * reaches a client.
 */
export function formatUser(user: UserDocument, viewer: Actor | null, options: FormatUserOptions = {}): ApiUser {
  const result: ApiUser = {
    email: user.email,
    user_id: user.user_id,
    avatar_version: user.avatar_version,
    is_admin: user.is_admin,
    is_owner: user.is_owner,
    is_guest: user.is_guest,
    is_billing_admin: user.is_billing_admin,
    role: user.role,
    is_bot: user.is_bot,
    full_name: user.full_name,
    timezone: user.timezone,
    is_active: user.is_active,
    date_joined: formatDateJoined(user.date_joined, viewer === null),
    delivery_email: canSeeDeliveryEmail(user, viewer) ? user.delivery_email : null,
    is_imported_stub: false,
    avatar_url: options.avatarUrl ? options.avatarUrl(user) : `/avatar/${user.user_id}`,
  };
  if (viewer === null) delete result.timezone;
  if (user.is_bot) {
    result.bot_type = user.bot_type;
    result.bot_owner_id = user.bot_owner_id;
  } else if (options.profileData !== undefined) {
    result.profile_data = options.profileData;
  }
  return result;
}

/** `GET /users/me`: the user as they see themselves, plus `max_message_id` when known. */
export function formatOwnUser(
  user: UserDocument,
  viewer: Actor,
  options: FormatUserOptions & { maxMessageId?: number } = {},
): ApiOwnUser {
  const result: ApiOwnUser = formatUser(user, viewer, options);
  if (options.maxMessageId !== undefined) result.max_message_id = options.maxMessageId;
  return result;
}

/** The actor a request acts as, from the authenticated account's document. */
export const actorFromUser = (user: UserDocument): Actor => ({
  realmId: user.realm_id,
  userId: user.user_id,
  role: user.role_name,
  isBot: user.is_bot,
});

/**
 * A bot as `realm_bots` and the `realm_bot` events describe it (zerver/actions/users.py
 * get_owned_bot_dicts / created_bot_event): its API key, owner, and (absent here) default
 * channels and services.
 */
export function formatBotDict(bot: UserDocument, apiKey: string): Record<string, unknown> {
  return {
    email: bot.email,
    user_id: bot.user_id,
    full_name: bot.full_name,
    bot_type: bot.bot_type ?? 1,
    is_active: bot.is_active,
    api_key: apiKey,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    owner_id: bot.bot_owner_id,
    avatar_url: `/avatar/${bot.user_id}`,
    services: [],
  };
}
