import { type Actor, isAdministrator } from '../shared/actor';
import type { Decider } from '../shared/decider';
import { MustBeAdministratorError } from '../shared/domain-error';
import { InvalidPlaygroundError } from './realm-playgrounds.errors';
import type { RealmPlaygroundEvent } from './realm-playgrounds.events';
import { checkPlayground, type PlaygroundFields } from './realm-playgrounds.rules';

type Meta = { realmId: number; actor: Actor; now: string };

/** `POST /realm/playgrounds` (add_realm_playground); the id is allocated by the handler. */
export type AddRealmPlayground = { type: 'AddRealmPlayground'; data: Meta & PlaygroundFields & { playgroundId: number } };
/** `DELETE /realm/playgrounds/{playground_id}` (delete_realm_playground). */
export type RemoveRealmPlayground = { type: 'RemoveRealmPlayground'; data: Meta & { playgroundId: number } };

export type RealmPlaygroundsCommand = AddRealmPlayground | RemoveRealmPlayground;

export type RealmPlaygroundState = PlaygroundFields & { playgroundId: number };
export type RealmPlaygroundsState = { playgrounds: Record<number, RealmPlaygroundState> };

/** The code playgrounds of one organization (stream `realm_playgrounds-<realmId>`), zerver/actions/realm_playgrounds.py. */
export const realmPlaygroundsDecider: Decider<RealmPlaygroundsCommand, RealmPlaygroundEvent, RealmPlaygroundsState> = {
  snapshot: { name: 'realm_playgrounds', version: 1 },
  initialState: () => ({ playgrounds: {} }),

  decide: (command, state) => {
    const { realmId, actor, now: at } = command.data;
    // require_realm_admin, before anything else.
    if (!isAdministrator(actor)) throw new MustBeAdministratorError();
    const actorId = actor.userId;
    switch (command.type) {
      case 'AddRealmPlayground': {
        const { name, pygmentsLanguage, urlTemplate } = checkPlayground(command.data, Object.values(state.playgrounds));
        return [{ type: 'RealmPlaygroundAdded', data: { realmId, playgroundId: command.data.playgroundId, name, pygmentsLanguage, urlTemplate, actorId, at } }];
      }
      case 'RemoveRealmPlayground': {
        const playground = state.playgrounds[command.data.playgroundId];
        if (!playground) throw new InvalidPlaygroundError();
        const { playgroundId, name, pygmentsLanguage, urlTemplate } = playground;
        return [{ type: 'RealmPlaygroundRemoved', data: { realmId, playgroundId, name, pygmentsLanguage, urlTemplate, actorId, at } }];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'RealmPlaygroundAdded': {
        const { playgroundId, name, pygmentsLanguage, urlTemplate } = event.data;
        return { playgrounds: { ...state.playgrounds, [playgroundId]: { playgroundId, name, pygmentsLanguage, urlTemplate } } };
      }
      case 'RealmPlaygroundRemoved': {
        const playgrounds = { ...state.playgrounds };
        delete playgrounds[event.data.playgroundId];
        return { playgrounds };
      }
      default:
        return state;
    }
  },
};
