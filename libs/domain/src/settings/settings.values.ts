/**
 * The values of the free-text settings that Zulip checks against what it ships.
 */

/**
 * Languages Zulip has translations for (zerver/lib/i18n.py get_available_language_codes: the
 * locales under locale/ with a django.po, as Django's to_language writes them), plus English.
 */
export const AVAILABLE_LANGUAGE_CODES: ReadonlySet<string> = new Set([
  'en', 'ar', 'be', 'bg', 'bn', 'bqi', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en-gb', 'eo', 'es', 'et', 'fa', 'fi', 'fr',
  'gl', 'gu', 'hi', 'hu', 'id', 'id-id', 'it', 'ja', 'kk', 'ko', 'lt', 'lv', 'ml', 'mn', 'my', 'nb-no', 'nl', 'no',
  'pl', 'pt', 'pt-br', 'pt-pt', 'ro', 'ru', 'si', 'sl', 'sr', 'sv', 'ta', 'tl', 'tr', 'uk', 'vi', 'zh-hans',
  'zh-hant', 'zh-tw',
]);

/** zerver/lib/sounds.py get_available_notification_sounds: the sounds under static/audio/notification_sounds. */
export const NOTIFICATION_SOUNDS: ReadonlySet<string> = new Set([
  'ascend', 'beep_boop', 'bink', 'bright', 'brlip', 'chime', 'deep tom', 'ding', 'double tap', 'down', 'dry bongos',
  'dutdut', 'fast ascend', 'flute', 'friendly', 'kick roll', 'loud tintong', 'metallic snare', 'pan', 'practicechat',
  'shaker', 'simple', 'stairs', 'subtle', 'swish', 'tintong', 'up', 'wood block', 'zaping', 'zing', 'zulip',
]);

/** check_settings_values: "none" turns the sound off. */
export const isNotificationSound = (sound: string): boolean => sound === 'none' || NOTIFICATION_SOUNDS.has(sound);

/** check_settings_values: more than nothing, at most a week. */
export const MAX_EMAIL_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;
export const isEmailBatchingPeriod = (seconds: number): boolean => seconds > 0 && seconds <= MAX_EMAIL_BATCHING_PERIOD_SECONDS;

/** Areas of the tz database's current names (zone1970.tab); other names are backward-compatible links. */
const MODERN_AREAS = new Set(['Africa', 'America', 'Antarctica', 'Arctic', 'Asia', 'Atlantic', 'Australia', 'Europe', 'Indian', 'Pacific', 'Etc']);

/** ICU's name for a zone, or undefined when it knows none by that name. */
function icuZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * check_timezone: a name Python's zoneinfo knows, links included ("US/Mountain"). Node's ICU knows
 * the same names but also accepts what zoneinfo refuses, so this also requires the tz database's
 * spelling: no UTC offsets ("+05:00"), each part capitalized as the database writes it, and the
 * exact case of a canonical name ("america/new_york" is refused, as zoneinfo refuses it).
 */
export function isRecognizedTimezone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  const zone = icuZone(name);
  if (zone === undefined) return false;
  if (zone.toLowerCase() === name.toLowerCase()) return zone === name || Intl.supportedValuesOf('timeZone').includes(name);
  return name.split('/').every((part) => /^[A-Z0-9]/.test(part));
}

/**
 * do_change_user_setting stores the canonical name of a link (zerver/lib/timezone.py
 * canonicalize_timezone): "US/Mountain" is stored as "America/Denver". ICU's canonical names
 * lag the tz database's for some current names (it says "Asia/Calcutta" for "Asia/Kolkata"), so
 * names in the database's current areas are kept as given and only older links are replaced.
 */
export function canonicalTimezone(name: string): string {
  const area = name.split('/')[0];
  if (name.includes('/') && MODERN_AREAS.has(area)) return name;
  return icuZone(name) ?? name;
}
