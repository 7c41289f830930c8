import type { StoredReaction } from '@app/domain';

/** A reaction as message objects and `reaction` events carry it (ReactionDict.build_dict_from_raw_db_row). */
export type ApiReaction = { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number };

/**
 * The reactions to one message, oldest first (Zulip orders them by the Reaction row's id); absent
 * when there are none. A deleted message keeps a tombstone (`deleted`, no reactions), so a reaction
 * recorded after the deletion (a race the two streams allow) is not shown.
 */
export type MessageReactionsDocument = { message_id: number; realm_id: number; reactions: ApiReaction[]; deleted?: true };

export const MESSAGE_REACTIONS = 'message_reactions';

export const apiReactionOf = (r: StoredReaction): ApiReaction => ({
  emoji_name: r.emojiName,
  emoji_code: r.emojiCode,
  reaction_type: r.reactionType,
  user_id: r.userId,
});
