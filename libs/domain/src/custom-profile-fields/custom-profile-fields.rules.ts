import { codePointLength, pythonStrip } from '../shared/printable-text';
import { ProfileFieldError } from './custom-profile-fields.errors';
import { isDefaultExternalField, validateFieldData } from './custom-profile-fields.field-data';
import {
  DEFAULT_EXTERNAL_ACCOUNTS,
  FIELD_TYPES,
  PROFILE_FIELD_HINT_MAX_LENGTH,
  PROFILE_FIELD_NAME_MAX_LENGTH,
  isFieldType,
  type ProfileFieldProps,
} from './custom-profile-fields.types';

const fail = (message: string): never => {
  throw new ProfileFieldError(message);
};

/** validate_field_name_and_hint: a label, then the hint's limit, then the label's. */
function checkNameAndHint(name: string, hint: string): void {
  if (pythonStrip(name) === '') fail('Label cannot be blank.');
  if (codePointLength(hint) > PROFILE_FIELD_HINT_MAX_LENGTH) fail(`hint is too long (limit: ${PROFILE_FIELD_HINT_MAX_LENGTH} characters)`);
  if (codePointLength(name) > PROFILE_FIELD_NAME_MAX_LENGTH) fail(`name is too long (limit: ${PROFILE_FIELD_NAME_MAX_LENGTH} characters)`);
}

/** What a field's configuration is checked as: the request's values over the field's current ones. */
export type ProfileFieldDraft = {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: Record<string, unknown>;
  displayInProfileSummary: boolean;
  useForUserMatching: boolean;
};

/**
 * validate_custom_profile_field, in Zulip's order: field_data, then label and hint (not for a
 * default external account, whose label is fixed), the type, and the type's support for the
 * summary. Fields used for user matching must be Short text or External account (spec, FL 455).
 */
export function checkProfileFieldDraft(draft: ProfileFieldDraft): void {
  validateFieldData(draft.fieldType, draft.fieldData);
  if (!isDefaultExternalField(draft.fieldType, draft.fieldData)) checkNameAndHint(draft.name, draft.hint);
  if (!isFieldType(draft.fieldType)) fail('Invalid field type.');
  // Paragraph (Long text) fields may be shown there since feature level 476; Users fields never.
  if (draft.displayInProfileSummary && draft.fieldType === FIELD_TYPES.USER) {
    fail('Field type not supported for display in profile summary.');
  }
  if (draft.useForUserMatching && draft.fieldType !== FIELD_TYPES.SHORT_TEXT && draft.fieldType !== FIELD_TYPES.EXTERNAL_ACCOUNT) {
    fail('Field type not supported for use for user matching.');
  }
}

/** The label, hint and stored field_data of a checked draft (a default external account takes its provider's). */
export function settledNameHintAndData(draft: ProfileFieldDraft): Pick<ProfileFieldProps, 'name' | 'hint' | 'fieldData'> {
  if (isDefaultExternalField(draft.fieldType, draft.fieldData)) {
    const subtype = draft.fieldData.subtype as string;
    const provider = DEFAULT_EXTERNAL_ACCOUNTS[subtype];
    return { name: provider.name, hint: provider.hint, fieldData: JSON.stringify({ subtype }) };
  }
  const usesData = draft.fieldType === FIELD_TYPES.SELECT || draft.fieldType === FIELD_TYPES.EXTERNAL_ACCOUNT;
  return { name: draft.name, hint: draft.hint, fieldData: usesData ? JSON.stringify(draft.fieldData) : '' };
}

/** The stored field_data as an object ({} when unused). */
export function parseFieldData(fieldData: string): Record<string, unknown> {
  if (fieldData === '') return {};
  try {
    const parsed: unknown = JSON.parse(fieldData);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Python's `==` on JSON values: objects compare by keys and values, whatever their order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}
