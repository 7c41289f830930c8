import { pythonStrip } from '../shared/printable-text';
import { ProfileFieldError } from './custom-profile-fields.errors';
import { FIELD_TYPES, isDefaultExternalAccount } from './custom-profile-fields.types';
import { isValidUrl } from './url.rules';

const fail = (message: string): never => {
  throw new ProfileFieldError(message);
};
const isDict = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** zerver/lib/validator.py check_required_string. */
function checkRequiredString(name: string, value: unknown): string {
  if (typeof value !== 'string') return fail(`${name} is not a string`);
  if (pythonStrip(value) === '') fail(`${name} cannot be blank.`);
  return value;
}

/** check_dict_only: required keys in order, then optional ones, then no other key. */
function checkDictOnly(
  name: string,
  value: unknown,
  required: [string, (n: string, v: unknown) => unknown][],
  optional: [string, (n: string, v: unknown) => unknown][] = [],
): Record<string, unknown> {
  if (!isDict(value)) return fail(`${name} is not a dict`);
  for (const [key, check] of required) {
    if (!(key in value)) fail(`${key} key is missing from ${name}`);
    check(`${name}["${key}"]`, value[key]);
  }
  for (const [key, check] of optional) if (key in value) check(`${name}["${key}"]`, value[key]);
  const known = new Set([...required, ...optional].map(([key]) => key));
  const unexpected = Object.keys(value).filter((key) => !known.has(key));
  if (unexpected.length > 0) fail(`Unexpected arguments: ${unexpected.join(', ')}`);
  return value;
}

/** check_external_account_url_pattern. */
function checkUrlPattern(name: string, value: unknown): string {
  if (typeof value !== 'string') return fail(`${name} is not a string`);
  if (value.split('%(username)s').length - 1 !== 1) fail("URL pattern must contain '%(username)s'.");
  if (!isValidUrl(value.replace('%(username)s', 'username'))) fail(`${name} is not a URL`);
  return value;
}

/** validate_select_field_data: choices keyed by value, each exactly {text, order}, texts distinct. */
function validateSelectFieldData(fieldData: Record<string, unknown>): void {
  if (Object.keys(fieldData).length < 1) fail('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, choice] of Object.entries(fieldData)) {
    if (pythonStrip(key) === '') fail("'value' cannot be blank.");
    const valid = checkDictOnly('field_data', choice, [['text', checkRequiredString], ['order', checkRequiredString]]);
    texts.add(valid.text as string);
  }
  if (texts.size !== Object.keys(fieldData).length) fail('Field must not have duplicate choices.');
}

/** validate_external_account_field_data: a default provider's subtype, or "custom" (with an optional URL pattern). */
function validateExternalAccountFieldData(fieldData: Record<string, unknown>): void {
  checkDictOnly('field_data', fieldData, [['subtype', checkRequiredString]], [['url_pattern', checkUrlPattern]]);
  if (!isDefaultExternalAccount(fieldData.subtype) && fieldData.subtype !== 'custom') fail('Invalid external account type');
}

/** zerver/views/custom_profile_fields.py validate_custom_field_data: only choice and external-account fields use field_data. */
export function validateFieldData(fieldType: number, fieldData: Record<string, unknown>): void {
  if (fieldType === FIELD_TYPES.SELECT) validateSelectFieldData(fieldData);
  else if (fieldType === FIELD_TYPES.EXTERNAL_ACCOUNT) validateExternalAccountFieldData(fieldData);
}

/** is_default_external_field: an external-account field of one of the default providers. */
export const isDefaultExternalField = (fieldType: number, fieldData: Record<string, unknown>): boolean =>
  fieldType === FIELD_TYPES.EXTERNAL_ACCOUNT && fieldData.subtype !== 'custom';

/** The keys of a choice field's stored field_data (its valid values). */
export function choiceKeys(fieldData: string): Set<string> {
  try {
    const parsed: unknown = JSON.parse(fieldData);
    return new Set(isDict(parsed) ? Object.keys(parsed) : []);
  } catch {
    return new Set();
  }
}
