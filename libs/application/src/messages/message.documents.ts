/**
 * A message as stored for reading: the parts of Zulip's message object that do not depend on
 * the reader, the sender's current name or the channel's current name (those are joined in when
 * formatting, as Zulip's MessageDict hydrates them), plus the raw content for GET /messages/{id}.
 */
export type MessageDocument = {
  id: number;
  realm_id: number;
  sender_id: number;
  type: 'stream' | 'private';
  /**
   * Channel messages only: the channel and (`subject`) topic the message was SENT to. A move does
   * not rewrite documents: where a message is now comes from the message index
   * (UserMessageStorePort.locationsOf), which message-format overlays.
   */
  stream_id: number | null;
  /** The channel's name when the message was sent (display_recipient when the channel is gone). */
  stream_name: string | null;
  /** The topic ("" for direct messages and the empty topic). */
  subject: string;
  /** Direct messages: every participant, ascending. */
  dm_user_ids: number[] | null;
  recipient_id: number;
  /** Raw Markdown. */
  content: string;
  rendered_content: string;
  client: string;
  /** Seconds since the epoch. */
  timestamp: number;
  is_me_message: boolean;
  topic_links: { text: string; url: string }[];
  /** Seconds since the epoch of the last content edit; null until edited (then the field appears in the API). */
  last_edit_timestamp: number | null;
  /**
   * The content edits of Zulip's Message.edit_history, newest first; absent until edited. Moves are
   * kept with the message's location in the message index (UserMessageStorePort.locationsOf) and
   * merged in when formatting.
   */
  edit_history?: EditHistoryEntry[];
};

/** One entry of Zulip's edit_history (EditHistoryEvent): what one edit changed. */
export type EditHistoryEntry = {
  user_id: number;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
};

export const MESSAGES = 'messages';

/** A user's visibility policy for a topic (Zulip's UserTopic, the API's user_topic objects). */
export type UserTopicDocument = {
  user_id: number;
  realm_id: number;
  stream_id: number;
  topic_name: string;
  /** Lower-cased topic, for case-insensitive lookups. */
  topic_key: string;
  visibility_policy: number;
  /** Seconds since the epoch. */
  last_updated: number;
};

export const USER_TOPICS = 'user_topics';
export const userTopicDocumentId = (userId: number, streamId: number, topic: string) => `${userId}:${streamId}:${topic.toLowerCase()}`;
