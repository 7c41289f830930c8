/** Where a message went, as it was sent (the channel's name at send time is display_recipient). */
export type MessageRecipient =
  | { type: 'stream'; streamId: number; streamName: string; topic: string }
  | { type: 'direct'; participantIds: number[] };

/**
 * A message was sent (Zulip's do_send_messages): its content, rendering and recipients, and the
 * per-user state it starts with. `recipientIds` are the users who get a per-user row (active
 * subscribers of the channel, or the conversation's participants, plus mentioned bots); the
 * flag lists name subsets of them, so a replay rebuilds every user's state exactly.
 */
export type MessageSent = {
  type: 'MessageSent';
  data: {
    realmId: number;
    messageId: number;
    senderId: number;
    recipient: MessageRecipient;
    /** Raw Markdown, normalized (normalize_body). */
    content: string;
    renderedContent: string;
    /** The sending client's name (Client.name), e.g. "ZulipMobile", "website". */
    client: string;
    isMeMessage: boolean;
    hasLink: boolean;
    hasImage: boolean;
    hasAttachment: boolean;
    recipientIds: number[];
    /** Recipients for whom the message starts read (the sender, per read_by_sender). */
    readUserIds: number[];
    mentionedUserIds: number[];
    /** Every recipient gets `stream_wildcard_mentioned`. */
    streamWildcardMentioned: boolean;
    topicWildcardMentionedUserIds: number[];
    /** Local echo (delivered to the sending client's queue by the events issue). */
    localId: string | null;
    queueId: string | null;
    at: string;
  };
};

/** Zulip's UserTopic.VisibilityPolicy. */
export const VISIBILITY_POLICY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export type VisibilityPolicy = (typeof VISIBILITY_POLICY)[keyof typeof VISIBILITY_POLICY];

/**
 * A user's visibility policy for a topic changed (do_set_user_topic_visibility_policy). Sending a
 * message changes it automatically (the sender's automatically_follow_topics_policy and
 * automatically_unmute_topics_in_muted_streams_policy, and automatically_follow_topics_where_mentioned
 * for mentioned users); `messageId` names that message.
 */
export type UserTopicVisibilityPolicyChanged = {
  type: 'UserTopicVisibilityPolicyChanged';
  data: {
    realmId: number;
    userId: number;
    streamId: number;
    topic: string;
    oldPolicy: VisibilityPolicy;
    newPolicy: VisibilityPolicy;
    messageId: number | null;
    at: string;
  };
};

export type MessageEvent = MessageSent | UserTopicVisibilityPolicyChanged;
