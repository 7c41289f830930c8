import type { ReactionType } from '../emoji/emoji.rules';

/** One user's reaction to a message (Zulip's Reaction row). */
export type StoredReaction = { userId: number; emojiName: string; emojiCode: string; reactionType: ReactionType };

/**
 * do_add_reaction. `historical`: the user had no per-user row for the message (a public channel's
 * history they did not receive); the row is created flagged `read | historical`, as Zulip's
 * create_historical_user_messages does, so later events about the message reach them.
 */
export type ReactionAdded = {
  type: 'ReactionAdded';
  data: StoredReaction & { realmId: number; messageId: number; historical: boolean; at: string };
};

/** do_remove_reaction: the reaction as it was stored (its name included). */
export type ReactionRemoved = {
  type: 'ReactionRemoved';
  data: StoredReaction & { realmId: number; messageId: number; at: string };
};

export type ReactionEvent = ReactionAdded | ReactionRemoved;

export const REACTION_EVENT_TYPES: readonly ReactionEvent['type'][] = ['ReactionAdded', 'ReactionRemoved'];
