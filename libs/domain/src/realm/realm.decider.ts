import type { Decider } from '../shared/decider';
import { InvalidRealmNameError, RealmSettingTooLongError } from './realm.errors';
import { MAX_REALM_NAME_LENGTH } from './realm-registry.decider';
import type { RealmDeactivationReason, RealmProperty, RealmSettingsEvent } from './realm.events';

/** Zulip's Realm.MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

type Meta = { realmId: number; actorId: number | null; now: string };

/**
 * The values the organization was registered with (its RealmCreated in the registry stream), as
 * the handler read them. They are used only while this stream has not changed a setting yet:
 * `realm-<realmId>` then holds the authority, so a stale read cannot produce a wrong old value.
 */
export type RealmRegistration = { name: string; description: string };

export type ChangeRealmSettings = {
  type: 'ChangeRealmSettings';
  data: Meta & { registered: RealmRegistration; name?: string; description?: string };
};
export type DeactivateRealm = { type: 'DeactivateRealm'; data: Meta & { reason?: RealmDeactivationReason } };
export type ReactivateRealm = { type: 'ReactivateRealm'; data: Meta };

export type RealmSettingsCommand = ChangeRealmSettings | DeactivateRealm | ReactivateRealm;

/** Settings changed on this stream (null: still the registered value) and whether the organization is deactivated. */
export type RealmSettings = { name: string | null; description: string | null; deactivated: boolean };

/**
 * One organization's settings and lifecycle, on `realm-<realmId>`. The registry stream keeps only
 * what must be unique server-wide (the subdomain); everything else about an organization changes
 * here, so that busy organizations never contend on the registry.
 */
export const realmDecider: Decider<RealmSettingsCommand, RealmSettingsEvent, RealmSettings> = {
  initialState: () => ({ name: null, description: null, deactivated: false }),

  decide: (command, state) => {
    const { realmId, actorId, now: at } = command.data;
    switch (command.type) {
      case 'ChangeRealmSettings': {
        const { registered } = command.data;
        const changes: { property: RealmProperty; value: string }[] = [];
        if (command.data.name !== undefined) {
          // update_realm: check_capped_string(Realm.MAX_REALM_NAME_LENGTH) on the raw value.
          if ([...command.data.name].length > MAX_REALM_NAME_LENGTH) throw new RealmSettingTooLongError('name', MAX_REALM_NAME_LENGTH);
          const name = command.data.name.trim();
          if (name.length === 0) throw new InvalidRealmNameError("Organization name can't be empty.");
          changes.push({ property: 'name', value: name });
        }
        if (command.data.description !== undefined) {
          const description = command.data.description;
          if ([...description].length > MAX_REALM_DESCRIPTION_LENGTH) {
            throw new RealmSettingTooLongError('description', MAX_REALM_DESCRIPTION_LENGTH);
          }
          changes.push({ property: 'description', value: description });
        }
        const current = { name: state.name ?? registered.name, description: state.description ?? registered.description };
        // Zulip sets a property only when the value differs (update_realm).
        return changes
          .filter(({ property, value }) => current[property] !== value)
          .map(({ property, value }) => ({
            type: 'RealmPropertyChanged' as const,
            data: { realmId, property, oldValue: current[property], newValue: value, actorId, at },
          }));
      }
      case 'DeactivateRealm':
        // do_deactivate_realm returns early for an organization that is already deactivated.
        if (state.deactivated) return [];
        return [{ type: 'RealmDeactivated', data: { realmId, reason: command.data.reason ?? 'owner_request', actorId, at } }];
      case 'ReactivateRealm':
        if (!state.deactivated) return [];
        return [{ type: 'RealmReactivated', data: { realmId, actorId, at } }];
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'RealmPropertyChanged':
        return { ...state, [event.data.property]: event.data.newValue };
      case 'RealmDeactivated':
        return { ...state, deactivated: true };
      case 'RealmReactivated':
        return { ...state, deactivated: false };
      default:
        return state;
    }
  },
};
