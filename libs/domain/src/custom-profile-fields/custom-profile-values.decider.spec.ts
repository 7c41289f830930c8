import { deciderSpec } from '@app/testing';
import {
  type Actor,
  customProfileValuesDecider,
  type CustomProfileValuesCommand,
  FIELD_TYPES,
  ProfileFieldError,
  ProfileFieldNotEditableError,
  ProfileFieldNotFoundError,
  type ProfileFieldFacts,
  type UpdateProfileData,
} from '@app/domain';

const given = deciderSpec(customProfileValuesDecider);
const AT = '2026-01-01T00:00:00.000Z';
const hamlet: Actor = { realmId: 1, userId: 10, role: 'member', isBot: false };
const iago: Actor = { realmId: 1, userId: 2, role: 'administrator', isBot: false };

const field = (fieldId: number, fieldType: number, name: string, extra: Partial<ProfileFieldFacts> = {}): ProfileFieldFacts => ({
  fieldId, fieldType, name, fieldData: '', editableByUser: true, ...extra,
});
const FIELDS: Record<number, ProfileFieldFacts> = {
  1: field(1, FIELD_TYPES.SHORT_TEXT, 'Phone'),
  2: field(2, FIELD_TYPES.LONG_TEXT, 'Biography'),
  3: field(3, FIELD_TYPES.SELECT, 'Language', { fieldData: '{"py":{"text":"Python","order":"1"}}' }),
  4: field(4, FIELD_TYPES.DATE, 'Birthday'),
  5: field(5, FIELD_TYPES.URL, 'Homepage'),
  6: field(6, FIELD_TYPES.USER, 'Mentor'),
  7: field(7, FIELD_TYPES.EXTERNAL_ACCOUNT, 'GitHub username'),
  8: field(8, FIELD_TYPES.PRONOUNS, 'Pronouns'),
  9: field(9, FIELD_TYPES.SHORT_TEXT, 'Employee ID', { editableByUser: false }),
};
const USERS = { 11: { isActive: true, isBot: false }, 12: { isActive: false, isBot: false }, 13: { isActive: true, isBot: true } };

const set = (items: { fieldId: number; value: unknown }[], patch: Partial<UpdateProfileData['data']> = {}): CustomProfileValuesCommand => ({
  type: 'UpdateProfileData',
  data: { realmId: 1, actor: hamlet, now: AT, userId: 10, fields: FIELDS, current: {}, items, users: USERS, rendered: { 1: '<p>555</p>' }, ...patch },
});
const remove = (fieldIds: number[], patch: Partial<{ actor: Actor; current: Record<number, string> }> = {}): CustomProfileValuesCommand => ({
  type: 'RemoveProfileData', data: { realmId: 1, actor: hamlet, now: AT, userId: 10, fields: FIELDS, current: {}, fieldIds, ...patch },
});

describe('customProfileValuesDecider', () => {
  it('records each new value with the old one and its HTML', () =>
    given([]).when(set([{ fieldId: 1, value: '555' }, { fieldId: 6, value: [11] }], { current: { 1: '444' } })).then([
      { type: 'CustomProfileFieldValueChanged', data: { realmId: 1, userId: 10, fieldId: 1, oldValue: '444', newValue: '555', renderedValue: '<p>555</p>', actorId: 10, at: AT } },
      { type: 'CustomProfileFieldValueChanged', data: { realmId: 1, userId: 10, fieldId: 6, oldValue: null, newValue: '[11]', renderedValue: null, actorId: 10, at: AT } },
    ]));

  it('changes nothing for a value equal to the current one', () => given([]).when(set([{ fieldId: 1, value: '555' }], { current: { 1: '555' } })).thenNothingHappened());

  it('answers "Field id N not found." for an unknown field', () => given([]).when(set([{ fieldId: 99, value: 'x' }])).thenThrows(ProfileFieldNotFoundError, 'Field id 99 not found.'));

  it('keeps fields not editable by users for administrators', () => {
    given([]).when(set([{ fieldId: 9, value: 'E1' }])).thenThrows(
      ProfileFieldNotEditableError,
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
    given([]).when(set([{ fieldId: 9, value: 'E1' }], { actor: iago })).thenMatches([{ data: { newValue: 'E1', actorId: 2 } }]);
  });

  it('checks every item before writing any', () => given([]).when(set([{ fieldId: 1, value: 'ok' }, { fieldId: 4, value: 'soon' }])).thenThrows(ProfileFieldError, 'Birthday is not a date'));

  it.each([
    [1, 'x'.repeat(51), 'Phone is too long (limit: 50 characters)'],
    [1, [1], 'Phone is not a string'],
    [2, 'x'.repeat(501), 'Biography is too long (limit: 500 characters)'],
    [3, 'rb', "'rb' is not a valid choice for 'Language'."],
    [4, '2023-02-30', 'Birthday is not a date'],
    [4, '20230101', 'Birthday is not a date'],
    [5, 'example.com', 'Homepage is not a URL'],
    [5, 'javascript:alert(1)', 'Homepage is not a URL'],
    [6, '11', 'User IDs is not a list'],
    [6, [11, 'x'], 'User IDs[1] is not an integer'],
    [6, [11, 404, 405], 'Invalid user IDs: 404, 405'],
    [6, [12], 'User with ID 12 is deactivated'],
    [6, [13], 'User with ID 13 is a bot'],
    [7, 'y'.repeat(51), 'GitHub username is too long (limit: 50 characters)'],
    [8, 5, 'Pronouns is not a string'],
  ])('field %i refuses %j: %s', (fieldId, value, message) => given([]).when(set([{ fieldId, value }])).thenThrows(ProfileFieldError, message));

  it.each([
    [1, ''],
    [2, 'Markdown **works**'],
    [3, 'py'],
    [4, '2024-02-29'],
    [5, 'https://zulip.com/help/'],
    [6, []],
    [8, 'they/them'],
  ])('field %i accepts %j', (fieldId, value) => given([]).when(set([{ fieldId, value }])).thenMatches([{ type: 'CustomProfileFieldValueChanged' }]));

  it('removes values that exist, checking every field first', () => {
    given([]).when(remove([1, 2], { current: { 1: '555' } })).then([
      { type: 'CustomProfileFieldValueRemoved', data: { realmId: 1, userId: 10, fieldId: 1, oldValue: '555', actorId: 10, at: AT } },
    ]);
    given([]).when(remove([1, 99], { current: { 1: '555' } })).thenThrows(ProfileFieldNotFoundError, 'Field id 99 not found.');
    given([]).when(remove([9], { current: { 9: 'E1' } })).thenThrows(ProfileFieldNotEditableError);
  });
});
