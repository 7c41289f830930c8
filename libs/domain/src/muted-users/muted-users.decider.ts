import type { Decider } from '../shared/decider';
import { NoSuchUserError } from '../users/users.errors';
import { CannotMuteSelfError, UserAlreadyMutedError, UserNotMutedError } from './muted-users.errors';
import type { MutedUserEvent } from './muted-users.events';

/**
 * Whether the target is an account of the user's organization, as access_user_by_id_including_cross_realm
 * answers it for muting: bots and deactivated accounts count.
 */
type Target = { mutedUserId: number; targetExists: boolean };
type Meta = { userId: number; now: string };

/** `POST /users/me/muted_users/{muted_user_id}`. */
export type MuteUser = { type: 'MuteUser'; data: Meta & Target };
/** `DELETE /users/me/muted_users/{muted_user_id}`. */
export type UnmuteUser = { type: 'UnmuteUser'; data: Meta & Target };

export type MutedUsersCommand = MuteUser | UnmuteUser;

/** When each muted user was muted (ISO time), by id. */
export type MutedUsersState = { mutedAt: Record<number, string> };

/** The users one user has muted (stream `muted_users-<userId>`), checked in Zulip's order. */
export const mutedUsersDecider: Decider<MutedUsersCommand, MutedUserEvent, MutedUsersState> = {
  snapshot: { name: 'muted-users', version: 1 },
  initialState: () => ({ mutedAt: {} }),

  decide: (command, state) => {
    const { userId, mutedUserId, targetExists, now: at } = command.data;
    switch (command.type) {
      case 'MuteUser':
        if (mutedUserId === userId) throw new CannotMuteSelfError();
        if (!targetExists) throw new NoSuchUserError();
        if (state.mutedAt[mutedUserId] !== undefined) throw new UserAlreadyMutedError();
        return [{ type: 'UserMuted', data: { userId, mutedUserId, at } }];
      case 'UnmuteUser':
        if (!targetExists) throw new NoSuchUserError();
        if (state.mutedAt[mutedUserId] === undefined) throw new UserNotMutedError();
        return [{ type: 'UserUnmuted', data: { userId, mutedUserId, at } }];
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'UserMuted':
        return { mutedAt: { ...state.mutedAt, [event.data.mutedUserId]: event.data.at } };
      case 'UserUnmuted': {
        const mutedAt = { ...state.mutedAt };
        delete mutedAt[event.data.mutedUserId];
        return { mutedAt };
      }
      default:
        return state;
    }
  },
};
