import { choiceFieldCreated, profileFieldCreated, profileValueChanged, recorded, replay } from '@app/testing';
import type { CustomProfileFieldUpdated } from '@app/domain';
import { customProfileFieldsProjection } from './custom-profile-fields.projection';
import { customProfileValuesProjection } from './custom-profile-values.projection';

const fields = (events: { type: string; data: object }[]) => replay(customProfileFieldsProjection, recorded(events));
const values = (events: { type: string; data: object }[]) => replay(customProfileValuesProjection, recorded(events));

const updated = (fieldId: number, oldData: string, newData: string): CustomProfileFieldUpdated => {
  const props = { name: 'Language', hint: '', fieldType: 3, displayInProfileSummary: false, required: false, editableByUser: true, useForUserMatching: false };
  return { type: 'CustomProfileFieldUpdated', data: { realmId: 1, fieldId, old: { ...props, fieldData: oldData }, new: { ...props, fieldData: newData }, actorId: 2, at: 'x' } };
};

describe('customProfileFieldsProjection', () => {
  it('stores a field with Zulip\'s names', () =>
    expect(fields([profileFieldCreated({ fieldId: 4, name: 'Phone', hint: 'Work', required: true, displayInProfileSummary: true })]).get('4')).toEqual({
      id: 4, realm_id: 1, order: 4, name: 'Phone', type: 1, hint: 'Work', field_data: '', required: true, editable_by_user: true,
      display_in_profile_summary: true, use_for_user_matching: false,
    }));

  it('follows updates, reorders and deletion', () => {
    const created = choiceFieldCreated(1, { py: 'Python' });
    expect(fields([created, updated(1, created.data.fieldData, '{"rs":{"text":"Rust","order":"1"}}')]).get('1')!.field_data).toBe('{"rs":{"text":"Rust","order":"1"}}');
    const reordered = { type: 'CustomProfileFieldsReordered', data: { realmId: 1, order: [2, 1], positions: { 1: 1, 2: 0 }, actorId: 2, at: 'x' } };
    const docs = fields([profileFieldCreated({ fieldId: 1, name: 'A' }), profileFieldCreated({ fieldId: 2, name: 'B' }), reordered]);
    expect([docs.get('1')!.order, docs.get('2')!.order]).toEqual([1, 0]);
    expect(fields([created, { type: 'CustomProfileFieldDeleted', data: { realmId: 1, fieldId: 1, name: 'x', actorId: 2, at: 'x' } }]).size).toBe(0);
  });
});

describe('customProfileValuesProjection', () => {
  it('keeps every user\'s value of a field in the field\'s document', () => {
    const doc = values([profileFieldCreated({ fieldId: 1 }), profileValueChanged(10, 1, '555', { renderedValue: '<p>555</p>' }), profileValueChanged(11, 1, '777')]).get('1');
    expect(doc).toEqual({ field_id: 1, realm_id: 1, field_type: 1, values: { 10: { value: '555', rendered_value: '<p>555</p>' }, 11: { value: '777', rendered_value: null } } });
  });

  it('removes a value', () => {
    const removed = { type: 'CustomProfileFieldValueRemoved', data: { realmId: 1, userId: 10, fieldId: 1, oldValue: '555', actorId: 10, at: 'x' } };
    expect(values([profileFieldCreated({ fieldId: 1 }), profileValueChanged(10, 1, '555'), removed]).get('1')!.values).toEqual({});
  });

  it('drops the values of a deleted field, and ignores values set after', () => {
    const deleted = { type: 'CustomProfileFieldDeleted', data: { realmId: 1, fieldId: 1, name: 'Phone', actorId: 2, at: 'x' } };
    expect(values([profileFieldCreated({ fieldId: 1 }), profileValueChanged(10, 1, '555'), deleted, profileValueChanged(11, 1, '777')]).size).toBe(0);
  });

  it('drops values whose choice was removed from a choice field', () => {
    const created = choiceFieldCreated(1, { py: 'Python', rs: 'Rust' });
    const doc = values([created, profileValueChanged(10, 1, 'py'), profileValueChanged(11, 1, 'rs'), updated(1, created.data.fieldData, '{"rs":{"text":"Rust","order":"1"}}')]).get('1');
    expect(doc!.values).toEqual({ 11: { value: 'rs', rendered_value: null } });
  });

  it('gives the same document when an event is delivered twice', () => {
    const [created, change] = recorded([profileFieldCreated({ fieldId: 1 }), profileValueChanged(10, 1, '555')]);
    expect(replay(customProfileValuesProjection, [created, change, change])).toEqual(replay(customProfileValuesProjection, [created, change]));
  });
});
