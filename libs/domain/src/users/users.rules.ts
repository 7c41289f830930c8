import { InvalidEmailError, InvalidFullNameError } from './users.errors';

/** Zulip's UserProfile.MAX_NAME_LENGTH / MIN_NAME_LENGTH / NAME_INVALID_CHARS (check_full_name). */
export const MAX_NAME_LENGTH = 100;
export const MIN_NAME_LENGTH = 2;
const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];

export function checkFullName(raw: string): string {
  const fullName = raw.trim();
  if ([...fullName].length > MAX_NAME_LENGTH) throw new InvalidFullNameError('Name too long!');
  if ([...fullName].length < MIN_NAME_LENGTH) throw new InvalidFullNameError('Name too short!');
  if (NAME_INVALID_CHARS.some((c) => fullName.includes(c))) throw new InvalidFullNameError('Invalid characters in name!');
  // Names shaped like the "|<id>" disambiguation of mentions would confuse the mention syntax.
  if (/\|\d+$/.test(fullName)) throw new InvalidFullNameError('Invalid format!');
  // Zulip refuses every character of Unicode category C (control, format, private use, unassigned, surrogates).
  if (/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}]/u.test(fullName)) throw new InvalidFullNameError('Invalid characters in name!');
  return fullName;
}

/** A deliberately simple address check (Django's EmailValidator accepts a superset of this). */
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
export const MAX_EMAIL_LENGTH = 254;

export function checkEmail(raw: string): string {
  const email = raw.trim();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) throw new InvalidEmailError();
  return email;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Django's EmailValidator domain rule (labels, a TLD of 2+ characters) plus its `localhost` allow-list. */
const DOMAIN_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;
export const isValidEmailDomain = (domain: string): boolean =>
  domain.toLowerCase() === 'localhost' || (DOMAIN_PATTERN.test(domain) && !domain.endsWith('-'));

const LOCAL_PART_PATTERN = /^[^\s@<>()[\]\\,;:"]+$/;

/** An address Zulip's validate_email would accept (the shape check used at login and for bot emails). */
export function isValidEmailAddress(email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at <= 0 || email.length > MAX_EMAIL_LENGTH) return false;
  return LOCAL_PART_PATTERN.test(email.slice(0, at)) && isValidEmailDomain(email.slice(at + 1));
}

/** zerver/lib/users.py check_short_name: surrounding whitespace is dropped; empty is "Bad name or username". */
export function checkShortName(raw: string): string {
  const shortName = raw.trim();
  if (shortName.length === 0) throw new InvalidEmailError();
  return shortName;
}

/** Zulip's bot addresses: `<short_name>-bot@<bot domain>` (add_bot_backend); "Bad name or username" when not an address. */
export function botEmail(shortName: string, botDomain: string): string {
  const email = `${checkShortName(shortName)}-bot@${botDomain}`;
  if (!isValidEmailAddress(email)) throw new InvalidEmailError();
  return email;
}

/**
 * The domain of bot addresses, after Zulip's Realm.get_bot_domain / get_fake_email_domain: the
 * organization's host (`<string_id>.<external host>`) when that can end an email address,
 * otherwise the external host name without its port (Zulip's default FAKE_EMAIL_DOMAIN).
 * Zulip refuses to create bots when neither works (an IP-literal host); this server falls back to
 * `localhost` instead, so that a development server on 127.0.0.1 can create bots.
 */
export function botEmailDomain(realmStringId: string, externalUrl: string): string {
  let host: string;
  let hostname: string;
  try {
    const url = new URL(externalUrl);
    host = url.host;
    hostname = url.hostname;
  } catch {
    return 'localhost';
  }
  const realmHost = realmStringId === '' ? host : `${realmStringId}.${host}`;
  if (isValidEmailDomain(realmHost)) return realmHost.toLowerCase();
  if (isValidEmailDomain(hostname)) return hostname.toLowerCase();
  return 'localhost';
}
