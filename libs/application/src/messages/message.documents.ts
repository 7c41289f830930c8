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
  /** Channel messages only. */
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
