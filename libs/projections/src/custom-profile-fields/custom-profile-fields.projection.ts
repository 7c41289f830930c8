import { CUSTOM_PROFILE_FIELD_EVENT_TYPES, type CustomProfileFieldEvent, type ProfileFieldProps } from '@app/domain';
import { CUSTOM_PROFILE_FIELDS, type CustomProfileFieldDocument } from '@app/application';
import { defineProjection } from '../shared/projection';

const configOf = (p: ProfileFieldProps) => ({
  name: p.name, type: p.fieldType, hint: p.hint, field_data: p.fieldData, required: p.required, editable_by_user: p.editableByUser,
  display_in_profile_summary: p.displayInProfileSummary, use_for_user_matching: p.useForUserMatching,
});

/** Custom profile fields (Zulip's CustomProfileField), from `custom_profile_fields-<realmId>`. */
export const customProfileFieldsProjection = defineProjection<CustomProfileFieldDocument, CustomProfileFieldEvent>({
  name: 'custom_profile_fields',
  collection: { name: CUSTOM_PROFILE_FIELDS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: CUSTOM_PROFILE_FIELD_EVENT_TYPES,
  idsOf: (e) => {
    return e.type === 'CustomProfileFieldsReordered' ? Object.keys(e.data.positions) : [String(e.data.fieldId)];
  },
  evolve: (doc, e, id) => {
    switch (e.type) {
      case 'CustomProfileFieldCreated':
        return { id: e.data.fieldId, realm_id: e.data.realmId, order: e.data.order, ...configOf(e.data) };
      case 'CustomProfileFieldUpdated':
        return doc && { ...doc, ...configOf(e.data.new) };
      case 'CustomProfileFieldDeleted':
        return null;
      case 'CustomProfileFieldsReordered':
        return doc && { ...doc, order: e.data.positions[Number(id)] ?? doc.order };
      default:
        return doc;
    }
  },
});
