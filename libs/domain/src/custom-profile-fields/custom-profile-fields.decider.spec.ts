import { choiceFieldCreated, deciderSpec, profileFieldCreated } from '@app/testing';
import {
  type Actor,
  type CreateProfileField,
  customProfileFieldsDecider,
  type CustomProfileFieldsCommand,
  DefaultProfileFieldUpdateError,
  InvalidOrderMappingError,
  MustBeAdministratorError,
  ProfileFieldError,
  ProfileFieldLabelInUseError,
  ProfileFieldNotFoundError,
  ProfileSummaryLimitError,
  type UpdateProfileField,
} from '@app/domain';

const given = deciderSpec(customProfileFieldsDecider);
const AT = '2026-01-01T00:00:00.000Z';
const iago: Actor = { realmId: 1, userId: 2, role: 'administrator', isBot: false };
const hamlet: Actor = { realmId: 1, userId: 10, role: 'member', isBot: false };

const create = (patch: Partial<CreateProfileField['data']> = {}): CustomProfileFieldsCommand => ({
  type: 'CreateProfileField',
  data: {
    realmId: 1, actor: iago, now: AT, fieldId: 5, fieldType: 1, name: 'Phone', hint: '', fieldData: null,
    displayInProfileSummary: false, required: false, editableByUser: true, useForUserMatching: false, ...patch,
  },
});
const update = (patch: Partial<UpdateProfileField['data']>): CustomProfileFieldsCommand => ({
  type: 'UpdateProfileField', data: { realmId: 1, actor: iago, now: AT, fieldId: 1, ...patch },
});
const summaryField = (fieldId: number, name: string) => profileFieldCreated({ fieldId, name, displayInProfileSummary: true });

describe('customProfileFieldsDecider', () => {
  describe('CreateProfileField', () => {
    it('creates a field whose order is its id, with empty field_data for a text field', () =>
      given([]).when(create({ name: '  Phone  ', hint: 'Work number', required: true })).then([
        {
          type: 'CustomProfileFieldCreated',
          data: {
            realmId: 1, fieldId: 5, order: 5, name: 'Phone', hint: 'Work number', fieldType: 1, fieldData: '', displayInProfileSummary: false,
            required: true, editableByUser: true, useForUserMatching: false, actorId: 2, at: AT,
          },
        },
      ]));

    it('is for administrators only', () => given([]).when({ ...create(), data: { ...create().data, actor: hamlet } } as CustomProfileFieldsCommand).thenThrows(MustBeAdministratorError));

    it('checks label and hint: blank label, then the hint limit (80), then the label limit (40)', () => {
      given([]).when(create({ name: '   ' })).thenThrows(ProfileFieldError, 'Label cannot be blank.');
      given([]).when(create({ name: 'x'.repeat(41), hint: 'h'.repeat(81) })).thenThrows(ProfileFieldError, 'hint is too long (limit: 80 characters)');
      given([]).when(create({ name: 'x'.repeat(41) })).thenThrows(ProfileFieldError, 'name is too long (limit: 40 characters)');
      given([]).when(create({ name: 'x'.repeat(40), hint: 'h'.repeat(80) })).thenMatches([{ type: 'CustomProfileFieldCreated' }]);
    });

    it('refuses a type outside 1–8', () => {
      given([]).when(create({ fieldType: 9 })).thenThrows(ProfileFieldError, 'Invalid field type.');
      given([]).when(create({ fieldType: 0 })).thenThrows(ProfileFieldError, 'Invalid field type.');
      given([]).when(create({ fieldType: 8 })).thenMatches([{ data: { fieldType: 8 } }]);
    });

    it('shows at most 2 fields in the profile summary, checked before anything else', () => {
      const two = [summaryField(1, 'A'), summaryField(2, 'B')];
      given(two).when(create({ displayInProfileSummary: true, name: '' })).thenThrows(ProfileSummaryLimitError, 'Only 2 custom profile fields can be displayed in the profile summary.');
      given(two).when(create({ displayInProfileSummary: false })).thenMatches([{ type: 'CustomProfileFieldCreated' }]);
      given([summaryField(1, 'A')]).when(create({ displayInProfileSummary: true })).thenMatches([{ data: { displayInProfileSummary: true } }]);
    });

    it('never shows Users fields in the summary; Long text (Paragraph) ones since feature level 476', () => {
      given([]).when(create({ fieldType: 6, displayInProfileSummary: true })).thenThrows(ProfileFieldError, 'Field type not supported for display in profile summary.');
      given([]).when(create({ fieldType: 2, displayInProfileSummary: true })).thenMatches([{ type: 'CustomProfileFieldCreated', data: { fieldType: 2, displayInProfileSummary: true } }]);
    });

    it('uses only Short text and External account fields for user matching', () => {
      given([]).when(create({ fieldType: 2, useForUserMatching: true })).thenThrows(ProfileFieldError, 'Field type not supported for use for user matching.');
      given([]).when(create({ fieldType: 1, useForUserMatching: true })).thenMatches([{ data: { useForUserMatching: true } }]);
    });

    it('refuses a label another field has, exactly as written', () => {
      given([profileFieldCreated({ fieldId: 1, name: 'Phone' })]).when(create({ name: 'Phone' })).thenThrows(ProfileFieldLabelInUseError, 'A field with that label already exists.');
      given([profileFieldCreated({ fieldId: 1, name: 'Phone' })]).when(create({ name: 'phone' })).thenMatches([{ type: 'CustomProfileFieldCreated' }]);
    });

    describe('List of options', () => {
      const choice = (fieldData: Record<string, unknown>) => create({ fieldType: 3, name: 'Language', fieldData });

      it('stores the choices as JSON text', () =>
        given([]).when(choice({ python: { text: 'Python', order: '1' }, java: { text: 'Java', order: '2' } })).thenMatches([
          { data: { fieldData: '{"python":{"text":"Python","order":"1"},"java":{"text":"Java","order":"2"}}' } },
        ]));

      it.each([
        [{}, 'Field must have at least one choice.'],
        [{ ' ': { text: 'A', order: '1' } }, "'value' cannot be blank."],
        [{ a: 'x' }, 'field_data is not a dict'],
        [{ a: { order: '1' } }, 'text key is missing from field_data'],
        [{ a: { text: 1, order: '1' } }, 'field_data["text"] is not a string'],
        [{ a: { text: ' ', order: '1' } }, 'field_data["text"] cannot be blank.'],
        [{ a: { text: 'A' } }, 'order key is missing from field_data'],
        [{ a: { text: 'A', order: '1', color: 'red' } }, 'Unexpected arguments: color'],
        [{ a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } }, 'Field must not have duplicate choices.'],
      ])('refuses %j: %s', (data, message) => given([]).when(choice(data)).thenThrows(ProfileFieldError, message));

      it('requires choices even when no field_data is given', () => given([]).when(create({ fieldType: 3 })).thenThrows(ProfileFieldError, 'Field must have at least one choice.'));
    });

    describe('External account', () => {
      const external = (fieldData: Record<string, unknown>, name = 'Account') => create({ fieldType: 7, name, fieldData });

      it('takes a default provider\'s label and an empty hint, whatever was sent', () =>
        given([]).when(external({ subtype: 'github' }, '')).thenMatches([{ data: { name: 'GitHub username', hint: '', fieldData: '{"subtype":"github"}' } }]));

      it('accepts a custom account with or without a URL pattern', () => {
        given([]).when(external({ subtype: 'custom', url_pattern: 'https://example.com/%(username)s' })).thenMatches([{ data: { name: 'Account' } }]);
        given([]).when(external({ subtype: 'custom' })).thenMatches([{ data: { fieldData: '{"subtype":"custom"}' } }]);
      });

      it.each([
        [{}, 'subtype key is missing from field_data'],
        [{ subtype: '' }, 'field_data["subtype"] cannot be blank.'],
        [{ subtype: 'myspace' }, 'Invalid external account type'],
        [{ subtype: 'custom', url_pattern: 'https://example.com/' }, "URL pattern must contain '%(username)s'."],
        [{ subtype: 'custom', url_pattern: 'not a url %(username)s' }, 'field_data["url_pattern"] is not a URL'],
        [{ subtype: 'custom', url_pattern: 5 }, 'field_data["url_pattern"] is not a string'],
        [{ subtype: 'github', extra: 1 }, 'Unexpected arguments: extra'],
      ])('refuses %j: %s', (data, message) => given([]).when(external(data)).thenThrows(ProfileFieldError, message));
    });
  });

  describe('UpdateProfileField', () => {
    const phone = profileFieldCreated({ fieldId: 1, name: 'Phone', hint: 'Work' });

    it('changes only what is given, old and new configuration in the event', () =>
      given([phone]).when(update({ hint: 'Mobile', required: true })).thenMatches([
        { type: 'CustomProfileFieldUpdated', data: { fieldId: 1, old: { hint: 'Work', required: false }, new: { name: 'Phone', hint: 'Mobile', required: true } } },
      ]));

    it('does nothing when nothing changes', () => given([phone]).when(update({ name: 'Phone', hint: 'Work' })).thenNothingHappened());

    it('answers "Field id N not found." for an unknown field', () => given([]).when(update({ fieldId: 9, name: 'x' })).thenThrows(ProfileFieldNotFoundError, 'Field id 9 not found.'));

    it('counts the summary limit without the field itself', () => {
      const fields = [summaryField(1, 'A'), summaryField(2, 'B'), profileFieldCreated({ fieldId: 3, name: 'C' })];
      given(fields).when(update({ fieldId: 1, displayInProfileSummary: true })).thenNothingHappened();
      given(fields).when(update({ fieldId: 3, displayInProfileSummary: true })).thenThrows(ProfileSummaryLimitError);
    });

    it('refuses a label another field has', () =>
      given([phone, profileFieldCreated({ fieldId: 2, name: 'Email' })]).when(update({ name: 'Email' })).thenThrows(ProfileFieldLabelInUseError));

    it('checks the merged configuration', () => {
      given([phone]).when(update({ name: ' ' })).thenThrows(ProfileFieldError, 'Label cannot be blank.');
      given([profileFieldCreated({ fieldId: 1, fieldType: 6, name: 'Mentor' })]).when(update({ displayInProfileSummary: true })).thenThrows(ProfileFieldError, 'Field type not supported for display in profile summary.');
      given([profileFieldCreated({ fieldId: 1, fieldType: 2, name: 'Bio' })]).when(update({ displayInProfileSummary: true })).thenMatches([{ type: 'CustomProfileFieldUpdated', data: { new: { fieldType: 2, displayInProfileSummary: true } } }]);
    });

    it('lets a default external account change only its summary display', () => {
      const github = profileFieldCreated({ fieldId: 1, fieldType: 7, name: 'GitHub username', fieldData: '{"subtype":"github"}' });
      given([github]).when(update({ name: 'Code' })).thenThrows(DefaultProfileFieldUpdateError, 'Default custom field cannot be updated.');
      given([github]).when(update({ fieldData: { subtype: 'gitlab' } })).thenThrows(DefaultProfileFieldUpdateError);
      given([github]).when(update({ name: 'GitHub username', fieldData: { subtype: 'github' }, displayInProfileSummary: true })).thenMatches([
        { data: { new: { displayInProfileSummary: true, name: 'GitHub username' } } },
      ]);
    });

    it('replaces the choices of a List of options field', () =>
      given([choiceFieldCreated(1, { python: 'Python', java: 'Java' })]).when(update({ fieldData: { rust: { text: 'Rust', order: '1' } } })).thenMatches([
        { data: { new: { fieldData: '{"rust":{"text":"Rust","order":"1"}}' } } },
      ]));
  });

  describe('DeleteProfileField and ReorderProfileFields', () => {
    const fields = [profileFieldCreated({ fieldId: 1, name: 'A' }), profileFieldCreated({ fieldId: 2, name: 'B' })];

    it('deletes a field', () =>
      given(fields).when({ type: 'DeleteProfileField', data: { realmId: 1, actor: iago, now: AT, fieldId: 2 } }).thenMatches([{ type: 'CustomProfileFieldDeleted', data: { fieldId: 2, name: 'B' } }]));

    it('answers "Field id N not found." for an unknown or deleted field', () => {
      given(fields).when({ type: 'DeleteProfileField', data: { realmId: 1, actor: iago, now: AT, fieldId: 7 } }).thenThrows(ProfileFieldNotFoundError, 'Field id 7 not found.');
    });

    it('reorders every field, or refuses', () => {
      const reorder = (order: number[]): CustomProfileFieldsCommand => ({ type: 'ReorderProfileFields', data: { realmId: 1, actor: iago, now: AT, order } });
      given(fields).when(reorder([2, 1])).thenMatches([{ data: { positions: { 1: 1, 2: 0 } } }]);
      given(fields).when(reorder([1])).thenThrows(InvalidOrderMappingError, 'Invalid order mapping.');
    });
  });
});
