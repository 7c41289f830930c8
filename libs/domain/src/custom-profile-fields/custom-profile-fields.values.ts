import { codePointLength } from '../shared/printable-text';
import { ProfileFieldError } from './custom-profile-fields.errors';
import { choiceKeys } from './custom-profile-fields.field-data';
import { FIELD_TYPES } from './custom-profile-fields.types';
import { isValidUrl } from './url.rules';

/** What checking a value needs to know of its field. */
export type ProfileFieldFacts = { fieldId: number; name: string; fieldType: number; fieldData: string; editableByUser: boolean };

/** The users a Users field may name: accounts of the organization, by id. */
export type ProfileUserFacts = Record<number, { isActive: boolean; isBot: boolean }>;

const fail = (message: string): never => {
  throw new ProfileFieldError(message);
};

const checkString = (name: string, value: unknown): string => (typeof value === 'string' ? value : fail(`${name} is not a string`));

/** check_capped_string (check_short_string: 50, check_long_string: 500). */
function checkCappedString(limit: number, name: string, value: unknown): string {
  const text = checkString(name, value);
  if (codePointLength(text) > limit) fail(`${name} is too long (limit: ${limit} characters)`);
  return text;
}

/** check_date: an ISO date that `date.fromisoformat(x).isoformat()` gives back unchanged. */
function checkDate(name: string, value: unknown): string {
  const text = checkString(name, value);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return fail(`${name} is not a date`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  const valid = year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return valid ? text : fail(`${name} is not a date`);
}

function checkUrl(name: string, value: unknown): string {
  const text = checkString(name, value);
  return isValidUrl(text) ? text : fail(`${name} is not a URL`);
}

/** validate_select_field: the value is one of the choice keys. */
function checkChoice(name: string, fieldData: string, value: unknown): string {
  const text = checkString(name, value);
  return choiceKeys(fieldData).has(text) ? text : fail(`'${text}' is not a valid choice for '${name}'.`);
}

/** check_valid_user_ids: a list of ids of active human accounts of the organization. */
function checkUserIds(users: ProfileUserFacts, value: unknown): string {
  if (!Array.isArray(value)) return fail('User IDs is not a list');
  value.forEach((id, i) => {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) fail(`User IDs[${i}] is not an integer`);
  });
  const ids = value as number[];
  const invalid = ids.filter((id) => !users[id]);
  if (invalid.length > 0) fail(`Invalid user IDs: ${invalid.join(', ')}`);
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    if (!users[id].isActive) fail(`User with ID ${id} is deactivated`);
    if (users[id].isBot) fail(`User with ID ${id} is a bot`);
  }
  return JSON.stringify(ids);
}

/**
 * zerver/lib/users.py validate_user_custom_profile_field: checks a value against its field's type
 * (messages name the field by its label) and returns the text Zulip stores (a Users field's ids as
 * JSON).
 */
export function checkProfileValue(field: ProfileFieldFacts, value: unknown, users: ProfileUserFacts): string {
  switch (field.fieldType) {
    case FIELD_TYPES.SHORT_TEXT:
    case FIELD_TYPES.EXTERNAL_ACCOUNT:
    case FIELD_TYPES.PRONOUNS:
      return checkCappedString(50, field.name, value);
    case FIELD_TYPES.LONG_TEXT:
      return checkCappedString(500, field.name, value);
    case FIELD_TYPES.DATE:
      return checkDate(field.name, value);
    case FIELD_TYPES.URL:
      return checkUrl(field.name, value);
    case FIELD_TYPES.SELECT:
      return checkChoice(field.name, field.fieldData, value);
    case FIELD_TYPES.USER:
      return checkUserIds(users, value);
    default:
      return fail('Invalid field type.');
  }
}

/** The user ids a Users value names (to fetch their facts before checking). */
export const userIdsIn = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)) : [];
