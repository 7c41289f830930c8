import { type Actor, isAdministrator } from '../shared/actor';
import type { Decider } from '../shared/decider';
import { MustBeAdministratorError } from '../shared/domain-error';
import { orderMapping } from '../shared/order-mapping';
import { pythonStrip } from '../shared/printable-text';
import {
  DefaultProfileFieldUpdateError,
  ProfileFieldLabelInUseError,
  ProfileFieldNotFoundError,
  ProfileSummaryLimitError,
} from './custom-profile-fields.errors';
import type { CustomProfileFieldEvent } from './custom-profile-fields.events';
import { isDefaultExternalField } from './custom-profile-fields.field-data';
import { checkProfileFieldDraft, jsonEqual, parseFieldData, settledNameHintAndData } from './custom-profile-fields.rules';
import { FIELD_TYPES, MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS, type ProfileFieldProps } from './custom-profile-fields.types';

type Meta = { realmId: number; actor: Actor; now: string };

type Flags = { displayInProfileSummary: boolean; required: boolean; editableByUser: boolean; useForUserMatching: boolean };

/** `POST /realm/profile_fields`. `fieldData` null: not given. */
export type CreateProfileField = {
  type: 'CreateProfileField';
  data: Meta & Flags & { fieldId: number; fieldType: number; name: string; hint: string; fieldData: Record<string, unknown> | null };
};

/** `PATCH /realm/profile_fields/{field_id}`: only what the request names changes. */
export type UpdateProfileField = {
  type: 'UpdateProfileField';
  data: Meta & Partial<Flags> & { fieldId: number; name?: string; hint?: string; fieldData?: Record<string, unknown> };
};

export type DeleteProfileField = { type: 'DeleteProfileField'; data: Meta & { fieldId: number } };
export type ReorderProfileFields = { type: 'ReorderProfileFields'; data: Meta & { order: number[] } };

export type CustomProfileFieldsCommand = CreateProfileField | UpdateProfileField | DeleteProfileField | ReorderProfileFields;

export type ProfileFieldState = ProfileFieldProps & { fieldId: number; order: number };
export type CustomProfileFieldsState = { fields: Record<number, ProfileFieldState> };

const inSummary = (state: CustomProfileFieldsState, exceptId?: number) =>
  Object.values(state.fields).filter((f) => f.fieldId !== exceptId && f.displayInProfileSummary).length;

const labelTaken = (state: CustomProfileFieldsState, name: string, exceptId?: number) =>
  Object.values(state.fields).some((f) => f.fieldId !== exceptId && f.name === name);

const mustExist = (state: CustomProfileFieldsState, fieldId: number): ProfileFieldState => {
  const field = state.fields[fieldId];
  if (!field) throw new ProfileFieldNotFoundError(fieldId);
  return field;
};

const propsOf = (f: ProfileFieldState): ProfileFieldProps => ({
  name: f.name, hint: f.hint, fieldType: f.fieldType, fieldData: f.fieldData, displayInProfileSummary: f.displayInProfileSummary,
  required: f.required, editableByUser: f.editableByUser, useForUserMatching: f.useForUserMatching,
});

function decideCreate(d: CreateProfileField['data'], state: CustomProfileFieldsState): CustomProfileFieldEvent[] {
  if (d.displayInProfileSummary && inSummary(state) >= MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS) throw new ProfileSummaryLimitError();
  const draft = { ...d, name: pythonStrip(d.name), fieldData: d.fieldData ?? {} };
  checkProfileFieldDraft(draft);
  const props: ProfileFieldProps = {
    ...settledNameHintAndData(draft), fieldType: d.fieldType, displayInProfileSummary: d.displayInProfileSummary,
    required: d.required, editableByUser: d.editableByUser, useForUserMatching: d.useForUserMatching,
  };
  if (labelTaken(state, props.name)) throw new ProfileFieldLabelInUseError();
  return [{ type: 'CustomProfileFieldCreated', data: { ...props, realmId: d.realmId, fieldId: d.fieldId, order: d.fieldId, actorId: d.actor.userId, at: d.now } }];
}

function decideUpdate(d: UpdateProfileField['data'], state: CustomProfileFieldsState): CustomProfileFieldEvent[] {
  const field = mustExist(state, d.fieldId);
  if (d.displayInProfileSummary && inSummary(state, field.fieldId) >= MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS) throw new ProfileSummaryLimitError();
  const name = d.name === undefined ? undefined : pythonStrip(d.name);
  const storedData = parseFieldData(field.fieldData);
  if (isDefaultExternalField(field.fieldType, storedData)) {
    // Only display_in_profile_summary (and the flags) may change; the same label, hint or data may be resent.
    const changes = (name !== undefined && name !== field.name) || (d.hint !== undefined && d.hint !== field.hint)
      || (d.fieldData !== undefined && !jsonEqual(d.fieldData, storedData));
    if (changes) throw new DefaultProfileFieldUpdateError();
  }
  const draft = {
    name: name ?? field.name, hint: d.hint ?? field.hint, fieldType: field.fieldType, fieldData: d.fieldData ?? storedData,
    displayInProfileSummary: d.displayInProfileSummary ?? field.displayInProfileSummary, useForUserMatching: d.useForUserMatching ?? field.useForUserMatching,
  };
  checkProfileFieldDraft(draft);
  const usesData = field.fieldType === FIELD_TYPES.SELECT || field.fieldType === FIELD_TYPES.EXTERNAL_ACCOUNT;
  const next: ProfileFieldProps = {
    ...propsOf(field),
    name: draft.name, hint: draft.hint, displayInProfileSummary: draft.displayInProfileSummary, useForUserMatching: draft.useForUserMatching,
    required: d.required ?? field.required, editableByUser: d.editableByUser ?? field.editableByUser,
    fieldData: usesData && (d.fieldData !== undefined || field.fieldData === '') ? JSON.stringify(d.fieldData ?? {}) : field.fieldData,
  };
  if (labelTaken(state, next.name, field.fieldId)) throw new ProfileFieldLabelInUseError();
  if (jsonEqual(next, propsOf(field))) return [];
  return [{ type: 'CustomProfileFieldUpdated', data: { realmId: d.realmId, fieldId: field.fieldId, old: propsOf(field), new: next, actorId: d.actor.userId, at: d.now } }];
}

/** The custom profile fields of one organization (stream `custom_profile_fields-<realmId>`). */
export const customProfileFieldsDecider: Decider<CustomProfileFieldsCommand, CustomProfileFieldEvent, CustomProfileFieldsState> = {
  snapshot: { name: 'custom-profile-fields', version: 1 },
  initialState: () => ({ fields: {} }),

  decide: (command, state) => {
    const { realmId, actor, now: at } = command.data;
    if (!isAdministrator(actor)) throw new MustBeAdministratorError();
    switch (command.type) {
      case 'CreateProfileField':
        return decideCreate(command.data, state);
      case 'UpdateProfileField':
        return decideUpdate(command.data, state);
      case 'DeleteProfileField': {
        const field = mustExist(state, command.data.fieldId);
        return [{ type: 'CustomProfileFieldDeleted', data: { realmId, fieldId: field.fieldId, name: field.name, actorId: actor.userId, at } }];
      }
      case 'ReorderProfileFields': {
        const positions = orderMapping(Object.values(state.fields).map((f) => f.fieldId), command.data.order);
        return [{ type: 'CustomProfileFieldsReordered', data: { realmId, order: command.data.order, positions, actorId: actor.userId, at } }];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'CustomProfileFieldCreated': {
        const { realmId: _realm, actorId: _actor, at: _at, ...field } = event.data;
        return { fields: { ...state.fields, [field.fieldId]: field } };
      }
      case 'CustomProfileFieldUpdated': {
        const field = state.fields[event.data.fieldId];
        return field ? { fields: { ...state.fields, [field.fieldId]: { ...field, ...event.data.new } } } : state;
      }
      case 'CustomProfileFieldDeleted': {
        const fields = { ...state.fields };
        delete fields[event.data.fieldId];
        return { fields };
      }
      case 'CustomProfileFieldsReordered': {
        const fields = { ...state.fields };
        for (const [id, order] of Object.entries(event.data.positions)) if (fields[Number(id)]) fields[Number(id)] = { ...fields[Number(id)], order };
        return { fields };
      }
      default:
        return state;
    }
  },
};
