import { type Actor, isAdministrator } from '../shared/actor';
import type { Decider } from '../shared/decider';
import { ProfileFieldNotEditableError, ProfileFieldNotFoundError } from './custom-profile-fields.errors';
import type { CustomProfileValueEvent } from './custom-profile-fields.events';
import { checkProfileValue, type ProfileFieldFacts, type ProfileUserFacts } from './custom-profile-fields.values';

type Meta = { realmId: number; actor: Actor; now: string };

/** Facts every values command carries: the organization's fields and the user's values as they are shown. */
type Facts = {
  userId: number;
  fields: Record<number, ProfileFieldFacts>;
  /** Current values (a removed choice or a deleted field has none). */
  current: Record<number, string>;
};

/**
 * `PATCH /users/me/profile_data` (update_user_custom_profile_data): every item is checked before any
 * is written; a value equal to the current one changes nothing. Rendered HTML comes from the handler.
 */
export type UpdateProfileData = {
  type: 'UpdateProfileData';
  data: Meta & Facts & {
    items: { fieldId: number; value: unknown }[];
    users: ProfileUserFacts;
    rendered: Record<number, string | null>;
  };
};

/** `DELETE /users/me/profile_data` (remove_user_custom_profile_data). */
export type RemoveProfileData = { type: 'RemoveProfileData'; data: Meta & Facts & { fieldIds: number[] } };

export type CustomProfileValuesCommand = UpdateProfileData | RemoveProfileData;

/** The stream only records; the facts that guard it (fields, current values) come from the read models. */
export type CustomProfileValuesState = Record<string, never>;

/** validate_user_custom_profile_data's access part: the field exists and the actor may change it. */
export function accessProfileField(actor: Actor, fields: Record<number, ProfileFieldFacts>, fieldId: number): ProfileFieldFacts {
  const field = fields[fieldId];
  if (!field) throw new ProfileFieldNotFoundError(fieldId);
  if (!isAdministrator(actor) && !field.editableByUser) throw new ProfileFieldNotEditableError();
  return field;
}

/** Checks every item; returns the stored text of each. */
export function checkProfileData(command: UpdateProfileData['data']): { fieldId: number; value: string }[] {
  return command.items.map((item) => {
    const field = accessProfileField(command.actor, command.fields, item.fieldId);
    return { fieldId: item.fieldId, value: checkProfileValue(field, item.value, command.users) };
  });
}

/** One user's custom profile values (stream `custom_profile_values-<userId>`). */
export const customProfileValuesDecider: Decider<CustomProfileValuesCommand, CustomProfileValueEvent, CustomProfileValuesState> = {
  snapshot: { name: 'custom-profile-values', version: 1 },
  initialState: () => ({}),

  decide: (command, _state) => {
    const d = command.data;
    const base = { realmId: d.realmId, userId: d.userId, actorId: d.actor.userId, at: d.now };
    const current = { ...d.current };
    const events: CustomProfileValueEvent[] = [];
    if (command.type === 'UpdateProfileData') {
      for (const { fieldId, value } of checkProfileData(command.data)) {
        if (current[fieldId] === value) continue;
        events.push({
          type: 'CustomProfileFieldValueChanged',
          data: { ...base, fieldId, oldValue: current[fieldId] ?? null, newValue: value, renderedValue: command.data.rendered[fieldId] ?? null },
        });
        current[fieldId] = value;
      }
      return events;
    }
    for (const fieldId of command.data.fieldIds) accessProfileField(d.actor, d.fields, fieldId);
    for (const fieldId of command.data.fieldIds) {
      if (current[fieldId] === undefined) continue;
      events.push({ type: 'CustomProfileFieldValueRemoved', data: { ...base, fieldId, oldValue: current[fieldId] } });
      delete current[fieldId];
    }
    return events;
  },

  evolve: (state) => state,
};
