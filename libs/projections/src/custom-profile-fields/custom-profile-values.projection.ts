import {
  choiceKeys,
  CUSTOM_PROFILE_FIELD_EVENT_TYPES,
  CUSTOM_PROFILE_VALUE_EVENT_TYPES,
  type CustomProfileFieldEvent,
  type CustomProfileValueEvent,
  FIELD_TYPES,
} from '@app/domain';
import { CUSTOM_PROFILE_FIELD_VALUES, type CustomProfileFieldValuesDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

/**
 * Every user's value of each field, one document per field (see CustomProfileFieldValuesDocument).
 * Values follow their field: deleting it drops them, and a choice field whose choices change keeps
 * only the values that are still choices (remove_custom_profile_field_value_if_required).
 */
/** The field events that touch values (a reorder does not), and the value events. */
type FieldEvent = Exclude<CustomProfileFieldEvent, { type: 'CustomProfileFieldsReordered' }>;
type ValuesEvent = FieldEvent | CustomProfileValueEvent;

export const customProfileValuesProjection = defineProjection<CustomProfileFieldValuesDocument, ValuesEvent>({
  name: 'custom_profile_field_values',
  collection: { name: CUSTOM_PROFILE_FIELD_VALUES, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: [...CUSTOM_PROFILE_FIELD_EVENT_TYPES.filter((t): t is FieldEvent['type'] => t !== 'CustomProfileFieldsReordered'), ...CUSTOM_PROFILE_VALUE_EVENT_TYPES],
  idsOf: (e) => [String(e.data.fieldId)],
  evolve: (doc, e) => {
    switch (e.type) {
      case 'CustomProfileFieldCreated':
        return { field_id: e.data.fieldId, realm_id: e.data.realmId, field_type: e.data.fieldType, values: {} };
      case 'CustomProfileFieldDeleted':
        return null;
      case 'CustomProfileFieldUpdated': {
        if (!doc || doc.field_type !== FIELD_TYPES.SELECT || e.data.new.fieldData === e.data.old.fieldData) return doc;
        const keys = choiceKeys(e.data.new.fieldData);
        return { ...doc, values: Object.fromEntries(Object.entries(doc.values).filter(([, v]) => keys.has(v.value))) };
      }
      case 'CustomProfileFieldValueChanged':
        return doc && { ...doc, values: { ...doc.values, [String(e.data.userId)]: { value: e.data.newValue, rendered_value: e.data.renderedValue } } };
      case 'CustomProfileFieldValueRemoved': {
        if (!doc) return doc;
        const values = { ...doc.values };
        delete values[String(e.data.userId)];
        return { ...doc, values };
      }
      default:
        return doc;
    }
  },
});
