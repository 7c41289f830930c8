import { BadSettingValueError } from './domain-error';

/**
 * Message retention (Zulip's zerver/lib/retention.py): messages older than a number of days are
 * deleted by a periodic job. The organization has a value (Realm.message_retention_days, -1:
 * forever); each channel may have its own (Stream.message_retention_days: null follows the
 * organization's, -1 keeps forever). Direct messages follow the organization's.
 */

/** Realm.MESSAGE_RETENTION_SPECIAL_VALUES_MAP and Stream's "unlimited": keep messages forever. */
export const RETENTION_UNLIMITED = -1;

/** Realm.MESSAGE_RETENTION_SPECIAL_VALUES_MAP. */
export const REALM_RETENTION_SPECIAL_VALUES: Readonly<Record<string, number | null>> = { unlimited: RETENTION_UNLIMITED };
/** Stream.MESSAGE_RETENTION_SPECIAL_VALUES_MAP: "realm_default" is null (the organization's value). */
export const CHANNEL_RETENTION_SPECIAL_VALUES: Readonly<Record<string, number | null>> = { unlimited: RETENTION_UNLIMITED, realm_default: null };

/** A value as a client sends it: a positive number of days or one of the special names. */
export type MessageRetentionDaysInput = number | string;

/**
 * parse_message_retention_days: a special name, or a positive integer; anything else is
 * RequestVariableConversionError ("Bad value for 'message_retention_days': …").
 */
export function parseMessageRetentionDays(value: MessageRetentionDaysInput, special: Readonly<Record<string, number | null>>): number | null {
  if (typeof value === 'string' && Object.hasOwn(special, value)) return special[value];
  if (typeof value === 'string' || !Number.isSafeInteger(value) || value <= 0) throw new BadSettingValueError('message_retention_days', value);
  return value;
}

/**
 * The days a channel's messages are kept (archive_stream_messages: the channel's own value, else
 * the organization's); null: forever. Direct messages: pass `null` as the channel's value.
 */
export function effectiveRetentionDays(channelDays: number | null | undefined, realmDays: number): number | null {
  const days = channelDays ?? realmDays;
  return days === RETENTION_UNLIMITED ? null : days;
}

/** Seconds since the epoch before which a message sent is expired, for a retention of `days` at `now`. */
export const retentionCutoff = (now: Date, days: number): number => Math.floor(now.getTime() / 1000) - days * 86_400;
