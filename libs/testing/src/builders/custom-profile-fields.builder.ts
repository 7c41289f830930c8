import type { CustomProfileFieldCreated, CustomProfileFieldValueChanged, ProfileFieldProps } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** A Short text field "Phone" (id 1) in realm 1, unless overridden. */
export const profileFieldCreated = (overrides: Partial<CustomProfileFieldCreated['data']> = {}): CustomProfileFieldCreated => {
  const fieldId = overrides.fieldId ?? 1;
  return {
    type: 'CustomProfileFieldCreated',
    data: {
      realmId: 1, fieldId, order: fieldId, name: 'Phone', hint: '', fieldType: 1, fieldData: '', displayInProfileSummary: false,
      required: false, editableByUser: true, useForUserMatching: false, actorId: 2, at: AT,
      ...overrides,
    },
  };
};

/** A List of options field with the given choices (value → text), in order. */
export const choiceFieldCreated = (fieldId: number, choices: Record<string, string>, overrides: Partial<ProfileFieldProps> = {}) =>
  profileFieldCreated({
    fieldId, name: 'Language', fieldType: 3,
    fieldData: JSON.stringify(Object.fromEntries(Object.entries(choices).map(([value, text], i) => [value, { text, order: String(i + 1) }]))),
    ...overrides,
  });

export const profileValueChanged = (userId: number, fieldId: number, newValue: string, overrides: Partial<CustomProfileFieldValueChanged['data']> = {}): CustomProfileFieldValueChanged => ({
  type: 'CustomProfileFieldValueChanged',
  data: { realmId: 1, userId, fieldId, oldValue: null, newValue, renderedValue: null, actorId: userId, at: AT, ...overrides },
});
