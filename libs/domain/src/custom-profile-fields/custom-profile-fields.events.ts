import type { ProfileFieldProps } from './custom-profile-fields.types';

/** try_add_realm_custom_profile_field / try_add_realm_default_custom_profile_field. */
export type CustomProfileFieldCreated = {
  type: 'CustomProfileFieldCreated';
  data: ProfileFieldProps & { realmId: number; fieldId: number; order: number; actorId: number | null; at: string };
};

/** try_update_realm_custom_profile_field: the configuration before and after. */
export type CustomProfileFieldUpdated = {
  type: 'CustomProfileFieldUpdated';
  data: { realmId: number; fieldId: number; old: ProfileFieldProps; new: ProfileFieldProps; actorId: number | null; at: string };
};

/** do_remove_realm_custom_profile_field: the field and every value of it are gone. */
export type CustomProfileFieldDeleted = {
  type: 'CustomProfileFieldDeleted';
  data: { realmId: number; fieldId: number; name: string; actorId: number | null; at: string };
};

/** try_reorder_realm_custom_profile_fields: the requested order and each field's resulting position. */
export type CustomProfileFieldsReordered = {
  type: 'CustomProfileFieldsReordered';
  data: { realmId: number; order: number[]; positions: Record<number, number>; actorId: number | null; at: string };
};

export type CustomProfileFieldEvent =
  | CustomProfileFieldCreated
  | CustomProfileFieldUpdated
  | CustomProfileFieldDeleted
  | CustomProfileFieldsReordered;

export const CUSTOM_PROFILE_FIELD_EVENT_TYPES: readonly CustomProfileFieldEvent['type'][] = [
  'CustomProfileFieldCreated',
  'CustomProfileFieldUpdated',
  'CustomProfileFieldDeleted',
  'CustomProfileFieldsReordered',
];

/** do_update_user_custom_profile_data_if_changed: one field of a user's profile set to a new value. */
export type CustomProfileFieldValueChanged = {
  type: 'CustomProfileFieldValueChanged';
  data: {
    realmId: number;
    userId: number;
    fieldId: number;
    oldValue: string | null;
    newValue: string;
    /** HTML for Markdown fields (Short and Long text), else null. */
    renderedValue: string | null;
    actorId: number | null;
    at: string;
  };
};

/** check_remove_custom_profile_field_value. */
export type CustomProfileFieldValueRemoved = {
  type: 'CustomProfileFieldValueRemoved';
  data: { realmId: number; userId: number; fieldId: number; oldValue: string; actorId: number | null; at: string };
};

export type CustomProfileValueEvent = CustomProfileFieldValueChanged | CustomProfileFieldValueRemoved;

export const CUSTOM_PROFILE_VALUE_EVENT_TYPES: readonly CustomProfileValueEvent['type'][] = [
  'CustomProfileFieldValueChanged',
  'CustomProfileFieldValueRemoved',
];
