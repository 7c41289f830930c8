import { type SettingProperty, type SettingValue, TIMEZONE_SETTING, USER_SETTINGS, isUserSettingName } from './settings.catalog';
import {
  InvalidBatchingPeriodError,
  InvalidDefaultLanguageError,
  InvalidNotificationSoundError,
  InvalidTimezoneError,
  SettingValueNotAllowedError,
} from './settings.errors';
import { AVAILABLE_LANGUAGE_CODES, canonicalTimezone, isEmailBatchingPeriod, isNotificationSound, isRecognizedTimezone } from './settings.values';
import { SECURITY_SENSITIVE_USER_SETTINGS } from './settings.catalog';
import { CannotChangeSettingForOthersError, InvalidEnumSettingError } from './settings.errors';

/**
 * The checks of json_change_settings beyond the parameter types, with Zulip's messages:
 * the choices of enumerated settings, then check_settings_values (language, sound, batching
 * period) and check_timezone. Throws, or returns the value to store (a time zone link's canonical name).
 */
export function checkSettingValue(property: SettingProperty, value: SettingValue): SettingValue {
  if (property === TIMEZONE_SETTING) {
    if (typeof value !== 'string' || !isRecognizedTimezone(value)) throw new InvalidTimezoneError();
    return canonicalTimezone(value);
  }
  if (!isUserSettingName(property)) throw new SettingValueNotAllowedError(property);
  const spec = USER_SETTINGS[property];
  const typeOk = spec.type === 'bool' ? typeof value === 'boolean' : spec.type === 'int' ? Number.isSafeInteger(value) : typeof value === 'string';
  if (!typeOk) throw new SettingValueNotAllowedError(property);
  if ('choices' in spec && spec.choices && !(spec.choices as readonly SettingValue[]).includes(value)) {
    // resolved_topic_notice_auto_read_policy goes through parse_enum_from_string_value.
    if (property === 'resolved_topic_notice_auto_read_policy') throw new InvalidEnumSettingError(property);
    throw new SettingValueNotAllowedError(property);
  }
  if (property === 'default_language' && !AVAILABLE_LANGUAGE_CODES.has(value as string)) throw new InvalidDefaultLanguageError();
  if (property === 'notification_sound' && !isNotificationSound(value as string)) throw new InvalidNotificationSoundError(value as string);
  if (property === 'email_notifications_batching_period_seconds' && !isEmailBatchingPeriod(value as number)) {
    throw new InvalidBatchingPeriodError(value as number);
  }
  return value;
}

/**
 * json_change_settings with `target_users`: `email`, `new_password`, `timezone` and
 * SECURITY_SENSITIVE_USER_SETTINGS are refused ("Cannot change this setting for other users.");
 * so is `full_name`, an account field that Zulip leaves out of bulk edits.
 */
export const ACCOUNT_FIELDS_NOT_SETTABLE_FOR_OTHERS = ['email', 'new_password', 'full_name', TIMEZONE_SETTING] as const;

export function checkSettableForOthers(property: string): void {
  if ((ACCOUNT_FIELDS_NOT_SETTABLE_FOR_OTHERS as readonly string[]).includes(property) || SECURITY_SENSITIVE_USER_SETTINGS.has(property)) {
    throw new CannotChangeSettingForOthersError();
  }
}

/**
 * zproject/backends.py check_password_strength, without zxcvbn: never empty, at least
 * PASSWORD_MIN_LENGTH (6; 0 on a development server, zproject/dev_settings.py, which also sets
 * PASSWORD_MIN_GUESSES to 0), at most 100 characters.
 */
export const PASSWORD_MIN_LENGTH = 6;
export const DEVELOPMENT_PASSWORD_MIN_LENGTH = 0;
export const PASSWORD_MAX_LENGTH = 100;
export const isStrongEnoughPassword = (password: string, minLength: number = PASSWORD_MIN_LENGTH): boolean =>
  password !== '' && [...password].length >= minLength && [...password].length <= PASSWORD_MAX_LENGTH;
