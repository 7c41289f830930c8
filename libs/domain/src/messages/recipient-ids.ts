import type { MessageRecipient } from './messages.events';
import { directConversationKey } from './recipients.rules';

/**
 * Zulip's message `recipient_id`: "a unique ID for the set of users receiving the message (either
 * a channel or group of users), useful primarily for hashing". This server has no Recipient
 * table, so the ids are derived, in three disjoint residue classes: 3·channelId for a channel,
 * 3·userId + 1 for a one-to-one conversation (the receiving user's personal recipient, as in
 * Zulip, so the two directions of a conversation differ; a message to oneself uses one's own),
 * and 3·h + 2 for a group conversation, h a 48-bit FNV-1a hash of its participants.
 */
export function recipientIdOf(recipient: MessageRecipient, senderId: number): number {
  if (recipient.type === 'stream') return 3 * recipient.streamId;
  const others = recipient.participantIds.filter((id) => id !== senderId);
  if (others.length <= 1) return 3 * (others[0] ?? senderId) + 1;
  return 3 * fnv48(directConversationKey(recipient.participantIds)) + 2;
}

function fnv48(text: string): number {
  // FNV-1a over UTF-16 units with a 48-bit state kept in two 24-bit halves (stays a safe integer).
  let hi = 0x84222;
  let lo = 0x325;
  for (let i = 0; i < text.length; i++) {
    lo ^= text.charCodeAt(i);
    // Multiply by the FNV prime 2^40 + 2^8 + 0xb3, modulo 2^48.
    const loP = lo * 0x1b3;
    const hiP = hi * 0x1b3 + lo * 0x10000; // 2^40 = 2^24 · 2^16
    lo = loP & 0xffffff;
    hi = (hiP + Math.floor(loP / 0x1000000)) & 0xffffff;
  }
  return hi * 0x1000000 + lo;
}
