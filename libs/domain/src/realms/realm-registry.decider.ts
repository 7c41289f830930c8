import type { Decider } from '../shared/decider';
import type { RealmEvent } from './realm.events';
import { InvalidRealmNameError, InvalidRealmStringIdError, RealmStringIdTakenError } from './realm.errors';

export type CreateRealm = {
  type: 'CreateRealm';
  data: { stringId: string; name: string; description: string; now: string };
};
export type RealmRegistryCommand = CreateRealm;

export type RealmRegistry = { nextRealmId: number; stringIds: Record<string, number> };

/** Zulip's Realm.MAX_REALM_NAME_LENGTH and subdomain shape (zerver/forms.py check_subdomain_available). */
export const MAX_REALM_NAME_LENGTH = 40;
const STRING_ID_PATTERN = /^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$/;

export const realmRegistryDecider: Decider<RealmRegistryCommand, RealmEvent, RealmRegistry> = {
  snapshot: { name: 'realm-registry', version: 1 },
  initialState: () => ({ nextRealmId: 1, stringIds: {} }),

  decide: (command, state) => {
    switch (command.type) {
      case 'CreateRealm': {
        const { stringId, now } = command.data;
        const name = command.data.name.trim();
        if (!STRING_ID_PATTERN.test(stringId)) throw new InvalidRealmStringIdError();
        if (name.length === 0) throw new InvalidRealmNameError('Organization name can\'t be empty.');
        if ([...name].length > MAX_REALM_NAME_LENGTH) throw new InvalidRealmNameError('Organization name is too long.');
        if (state.stringIds[stringId] !== undefined) throw new RealmStringIdTakenError(stringId);
        return [
          {
            type: 'RealmCreated',
            data: { realmId: state.nextRealmId, stringId, name, description: command.data.description, at: now },
          },
        ];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'RealmCreated':
        return {
          nextRealmId: Math.max(state.nextRealmId, event.data.realmId + 1),
          stringIds: { ...state.stringIds, [event.data.stringId]: event.data.realmId },
        };
      default:
        return state;
    }
  },
};
