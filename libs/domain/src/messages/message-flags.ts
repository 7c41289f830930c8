/**
 * Per-user message flags (Zulip's UserMessage.flags) as one bitmask per (user, message). The
 * bit values are this server's storage format; the API speaks the names, in this order.
 */
export const MESSAGE_FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  group_mentioned: 64,
  has_alert_word: 128,
  historical: 256,
  /** Internal: the message is a direct message (Zulip's is_private; never sent to clients). */
  is_private: 512,
} as const;
export type MessageFlag = keyof typeof MESSAGE_FLAG_BITS;

/** Flags users may change themselves (POST /messages/flags); the others are computed. */
export const EDITABLE_MESSAGE_FLAGS: readonly MessageFlag[] = ['read', 'starred', 'collapsed'];

/** Any of these makes a message "mentioned" (the is:mentioned narrow). */
export const MENTION_FLAGS_MASK =
  MESSAGE_FLAG_BITS.mentioned | MESSAGE_FLAG_BITS.stream_wildcard_mentioned | MESSAGE_FLAG_BITS.topic_wildcard_mentioned | MESSAGE_FLAG_BITS.group_mentioned;

const API_FLAGS = (Object.keys(MESSAGE_FLAG_BITS) as MessageFlag[]).filter((f) => f !== 'is_private');

/**
 * The flags of a bitmask as the API lists them (UserMessage.flags_list_for_flags), plus the
 * deprecated `wildcard_mentioned` that Zulip still adds for either wildcard flag.
 */
export function flagsList(mask: number): string[] {
  const flags: string[] = API_FLAGS.filter((f) => (mask & MESSAGE_FLAG_BITS[f]) !== 0);
  if ((mask & (MESSAGE_FLAG_BITS.stream_wildcard_mentioned | MESSAGE_FLAG_BITS.topic_wildcard_mentioned)) !== 0) {
    flags.push('wildcard_mentioned');
  }
  return flags;
}
