import { type ApiReaction, apiReactionOf, MESSAGE_REACTIONS, type MessageReactionsDocument } from '@app/application';
import type { MessageDeleted, ReactionAdded, ReactionRemoved } from '@app/domain';
import { defineProjection } from '../shared/projection';

const sameReaction = (r: ApiReaction, d: ReactionAdded['data'] | ReactionRemoved['data']) =>
  r.user_id === d.userId && r.emoji_code === d.emojiCode && r.reaction_type === d.reactionType;

/**
 * The reactions of each message, in the order they were added, as message objects carry them
 * (one document per message with reactions; GET /messages joins them in). A deleted message's
 * reactions go with it; its tombstone keeps a late reaction out (see MessageReactionsDocument).
 */
export const reactionsProjection = defineProjection<MessageReactionsDocument, ReactionAdded | ReactionRemoved | MessageDeleted>({
  name: 'message_reactions',
  collection: { name: MESSAGE_REACTIONS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: ['ReactionAdded', 'ReactionRemoved', 'MessageDeleted'],
  idsOf: (e) => [String(e.data.messageId)],
  evolve: (doc, e) => {
    if (e.type === 'MessageDeleted') {
      const d = e.data;
      return { message_id: d.messageId, realm_id: d.realmId, reactions: [], deleted: true };
    }
    if (doc?.deleted) return doc;
    if (e.type === 'ReactionAdded') {
      const d = e.data;
      const reactions = doc?.reactions ?? [];
      // Idempotent: a redelivered reaction is there already (a user reacts once per emoji).
      if (reactions.some((r) => sameReaction(r, d))) return doc;
      return { message_id: d.messageId, realm_id: d.realmId, reactions: [...reactions, apiReactionOf(d)] };
    }
    if (!doc) return doc;
    const d = e.data;
    const reactions = doc.reactions.filter((r) => !sameReaction(r, d));
    return reactions.length === 0 ? null : { ...doc, reactions };
  },
});
