import type { Decider } from '../shared/decider';
import { checkEmojiRequest, type CustomEmojiFact, emojiDataFor, type ReactionType } from '../emoji/emoji.rules';
import { EmojiNameOrCodeRequiredError, ReactionAlreadyExistsError, ReactionDoesNotExistError } from './reactions.errors';
import type { ReactionEvent, StoredReaction } from './reactions.events';
import type { UserTopicVisibilityPolicyChanged } from '../messages/messages.events';
import { participationPolicyChanges, type TopicParticipation } from '../messages/visibility.rules';

/**
 * The organization's custom emoji the request may name, read by the handler: the active one called
 * `emoji_name`, and the one whose id is the request's `emoji_code` (deactivated ones too).
 */
export type ReactionEmojiFacts = { customByName: CustomEmojiFact | null; customById: CustomEmojiFact | null };

type Meta = { realmId: number; messageId: number; userId: number; now: string; emoji: ReactionEmojiFacts };

/**
 * `POST /messages/{id}/reactions` (check_add_reaction), after access_message. Missing
 * `emoji_code` / `reaction_type` are looked up from the name (get_emoji_data); `hasRow`: whether
 * the user has a per-user row for the message (without one, a historical row is created).
 * `participation`: what the user's automatic topic policy is decided on (a reaction is
 * participation, do_add_reaction; null where nothing can change, see TopicParticipation).
 */
export type AddReaction = {
  type: 'AddReaction';
  data: Meta & { emojiName: string; emojiCode: string | null; reactionType: string | null; hasRow: boolean; participation: TopicParticipation | null };
};

/** `DELETE /messages/{id}/reactions` (remove_reaction): `reactionType` defaults to unicode_emoji. */
export type RemoveReaction = {
  type: 'RemoveReaction';
  data: Meta & { emojiName: string | null; emojiCode: string | null; reactionType: string };
};

export type ReactionsCommand = AddReaction | RemoveReaction;

/** The message's reactions, in the order they were added. */
export type ReactionsState = { reactions: StoredReaction[] };

const same = (r: StoredReaction, userId: number | null, code: string, type: string) =>
  (userId === null || r.userId === userId) && r.emojiCode === code && r.reactionType === type;

/**
 * Reactions to one message (stream `message_reactions-<messageId>`, see reactions.streams.ts). An
 * added reaction may also change the user's policy for the message's topic (the automatic follow /
 * unmute on participation), recorded with it on the same stream, as a send records its own.
 */
export const reactionsDecider: Decider<ReactionsCommand, ReactionEvent | UserTopicVisibilityPolicyChanged, ReactionsState> = {
  snapshot: { name: 'reactions', version: 1 },
  initialState: () => ({ reactions: [] }),

  decide: (command, state) => {
    const { realmId, messageId, userId, now: at, emoji } = command.data;
    switch (command.type) {
      case 'AddReaction': {
        const d = command.data;
        let name = d.emojiName;
        let code = d.emojiCode;
        let type = d.reactionType;
        if (code === null || type === null) {
          const data = emojiDataFor(name, emoji.customByName);
          code ??= data.emojiCode;
          type ??= data.reactionType;
        }
        if (state.reactions.some((r) => same(r, userId, code!, type!))) throw new ReactionAlreadyExistsError();
        // A reaction with the same emoji by someone else: this one is a vote for it and takes its
        // name, unchecked (it may be a custom emoji deactivated since).
        const vote = state.reactions.find((r) => same(r, null, code!, type!));
        if (vote) name = vote.emojiName;
        else checkEmojiRequest(name, code, type, [emoji.customById, emoji.customByName].find((c) => c?.id === code) ?? null);
        // The policy first, as do_add_reaction sets it before notify_reaction_update.
        return [
          ...participationPolicyChanges(d.participation, { realmId, userId, messageId, at }),
          {
            type: 'ReactionAdded',
            data: { realmId, messageId, userId, emojiName: name, emojiCode: code, reactionType: type as ReactionType, historical: !d.hasRow, at },
          },
        ];
      }
      case 'RemoveReaction': {
        const d = command.data;
        let code = d.emojiCode;
        if (code === null) {
          if (d.emojiName === null) throw new EmojiNameOrCodeRequiredError();
          code = emojiDataFor(d.emojiName, emoji.customByName).emojiCode;
        }
        // Not checked against the organization's emoji: the reaction was valid when added.
        const existing = state.reactions.find((r) => same(r, userId, code!, d.reactionType));
        if (!existing) throw new ReactionDoesNotExistError();
        return [{ type: 'ReactionRemoved', data: { realmId, messageId, ...existing, at } }];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'ReactionAdded': {
        const { userId, emojiName, emojiCode, reactionType } = event.data;
        return { reactions: [...state.reactions, { userId, emojiName, emojiCode, reactionType }] };
      }
      case 'ReactionRemoved': {
        const { userId, emojiCode, reactionType } = event.data;
        return { reactions: state.reactions.filter((r) => !same(r, userId, emojiCode, reactionType)) };
      }
      default:
        return state;
    }
  },
};
