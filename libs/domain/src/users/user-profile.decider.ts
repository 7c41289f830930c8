import type { Decider } from '../shared/decider';
import type { UserFullNameChanged } from './users.events';
import { checkFullName } from './users.rules';

/**
 * A human's full name changed on their own stream, `user_profile-<userId>` (users.streams.ts).
 * Who may rename whom is checked on the directory first (renameTarget); `currentName` is the
 * directory's copy of the name, which is current until this stream has a rename of its own.
 */
export type ChangeFullName = {
  type: 'ChangeFullName';
  data: { realmId: number; userId: number; actorId: number | null; now: string; fullName: string; currentName: string };
};
export type UserProfileCommand = ChangeFullName;
export type UserProfileEvent = UserFullNameChanged;
/** The name this stream last set; null before its first rename. */
export type UserProfileState = { fullName: string | null };

export const userProfileDecider: Decider<UserProfileCommand, UserProfileEvent, UserProfileState> = {
  initialState: () => ({ fullName: null }),
  decide: (command, state) => {
    const { realmId, userId, actorId, now: at } = command.data;
    const fullName = checkFullName(command.data.fullName);
    const oldName = state.fullName ?? command.data.currentName;
    if (oldName === fullName) return [];
    return [{ type: 'UserFullNameChanged', data: { realmId, userId, oldName, newName: fullName, actorId, at } }];
  },
  evolve: (state, event) => (event.type === 'UserFullNameChanged' ? { fullName: event.data.newName } : state),
  snapshot: { name: 'user_profile', version: 1 },
};
