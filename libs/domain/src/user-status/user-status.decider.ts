import type { Decider } from '../shared/decider';
import type { UserStatusEvent } from './user-status.events';
import { type StatusEmojiFacts, type StatusTarget, type UserStatusInput, checkMaySetStatusOf, checkUpdateUserStatus } from './user-status.rules';

/**
 * Set a user's status: the user themselves (`POST /users/me/status`, `target` left out), or an
 * administrator for them (`POST /users/{user_id}/status`, with the target's account facts).
 */
export type UpdateUserStatus = {
  type: 'UpdateUserStatus';
  data: {
    realmId: number;
    userId: number;
    actorId: number | null;
    actorIsAdministrator: boolean;
    now: string;
    input: UserStatusInput;
    emoji: StatusEmojiFacts;
    target?: StatusTarget;
  };
};

export type UserStatusCommand = UpdateUserStatus;
export type UserStatusState = { statusText: string; emojiName: string; emojiCode: string; reactionType: string };

/** One user's status (stream `user_status-<userId>`). Zulip records every update, even an unchanged one. */
export const userStatusDecider: Decider<UserStatusCommand, UserStatusEvent, UserStatusState> = {
  snapshot: { name: 'user-status', version: 1 },
  initialState: () => ({ statusText: '', emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' }),

  decide: (command) => {
    const { realmId, userId, actorId, now: at, input, emoji, target } = command.data;
    if (target !== undefined) checkMaySetStatusOf(target, { userId: actorId, isAdministrator: command.data.actorIsAdministrator });
    const status = checkUpdateUserStatus(input, emoji);
    // `away` alone changes only a setting (presence_enabled), not the status.
    if (status.statusText === undefined && status.emoji === undefined) return [];
    return [{ type: 'UserStatusChanged', data: { realmId, userId, ...(status.statusText !== undefined ? { statusText: status.statusText } : {}), ...status.emoji, actorId, at } }];
  },

  evolve: (state, event) => {
    if (event.type !== 'UserStatusChanged') return state;
    const { statusText, emojiName, emojiCode, reactionType } = event.data;
    return {
      statusText: statusText ?? state.statusText,
      emojiName: emojiName ?? state.emojiName,
      emojiCode: emojiCode ?? state.emojiCode,
      reactionType: reactionType ?? state.reactionType,
    };
  },
};
