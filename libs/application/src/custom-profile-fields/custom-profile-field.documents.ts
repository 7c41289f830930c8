/** A custom profile field with Zulip's flags as stored; `realm_id` for queries. */
export type CustomProfileFieldDocument = {
  id: number;
  realm_id: number;
  name: string;
  type: number;
  hint: string;
  /** JSON text for choice and external-account fields, "" otherwise (as Zulip stores and returns it). */
  field_data: string;
  order: number;
  required: boolean;
  editable_by_user: boolean;
  display_in_profile_summary: boolean;
  use_for_user_matching: boolean;
};

/**
 * Zulip's CustomProfileField.as_dict: `display_in_profile_summary` and `use_for_user_matching`
 * appear only when true.
 */
export type ApiCustomProfileField = {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  required: boolean;
  editable_by_user: boolean;
  display_in_profile_summary?: true;
  use_for_user_matching?: true;
};

/**
 * Every user's value of one field, in one document (per field, not per user): deleting a field
 * removes its values in one write, and dropping a choice from a choice field removes the values
 * that named it. GET /users reads the few field documents of an organization to build profile_data.
 */
export type CustomProfileFieldValuesDocument = {
  field_id: number;
  realm_id: number;
  field_type: number;
  values: Record<string, { value: string; rendered_value: string | null }>;
};

/** `profile_data` of a user object: by field id, the value (and its HTML for Markdown fields). */
export type ProfileData = Record<string, { value: string; rendered_value?: string | null }>;

export const CUSTOM_PROFILE_FIELDS = 'custom_profile_fields';
export const CUSTOM_PROFILE_FIELD_VALUES = 'custom_profile_field_values';

export function formatCustomProfileField(field: CustomProfileFieldDocument): ApiCustomProfileField {
  const api: ApiCustomProfileField = {
    id: field.id, name: field.name, type: field.type, hint: field.hint, field_data: field.field_data, order: field.order,
    required: field.required, editable_by_user: field.editable_by_user,
  };
  if (field.display_in_profile_summary) api.display_in_profile_summary = true;
  if (field.use_for_user_matching) api.use_for_user_matching = true;
  return api;
}
