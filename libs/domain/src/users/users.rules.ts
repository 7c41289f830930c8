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
  // Control characters never belong in a display name.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(fullName)) throw new InvalidFullNameError('Invalid characters in name!');
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
