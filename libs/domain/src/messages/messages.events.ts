import type { StoredSubmessage } from '../submessages/submessages.events';
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
    /** Recipients whose alert words the content holds (`has_alert_word`); absent when none. */
    alertWordUserIds?: number[];
    /**
     * The widget's first submessage, saved with the message (zerver/lib/widget.py
     * do_widget_post_save_actions): content starting with `/poll` or `/todo`. Absent otherwise.
     */
    widget?: StoredSubmessage;
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
 * for mentioned users), and so do a reaction and a submessage (participation: the same two
 * settings); `messageId` names that message (the one reacted to or voted on).
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
    /**
     * Whether the deprecated `muted_topics` event is left out (Zulip's skip_muted_topics_event):
     * true where a move clears the original topic's policies. Absent on events recorded before it
     * existed, where a move's changes (on the message's stream, without `messageId`) all left it out.
     */
    skipMutedTopicsEvent?: boolean;
  };
};

/**
 * A message's content was edited (zerver/actions/message_edit.py do_update_message, content part).
 * Appended to `message-<id>`. The mention lists are the new rendering's, as on send: the
 * projections set the mention flags of the rows that exist from them (rows are never added by an
 * edit, as in Zulip's update_user_message_flags).
 */
export type MessageContentEdited = {
  type: 'MessageContentEdited';
  data: {
    realmId: number;
    messageId: number;
    editorId: number;
    prevContent: string;
    content: string;
    prevRenderedContent: string;
    renderedContent: string;
    isMeMessage: boolean;
    hasLink: boolean;
    hasImage: boolean;
    hasAttachment: boolean;
    mentionedUserIds: number[];
    streamWildcardMentioned: boolean;
    topicWildcardMentionedUserIds: number[];
    /**
     * The mentions of the content before, so the projections clear only those users' mention
     * flags (optional: without them every row of the message is looked at).
     */
    prevMentionedUserIds?: number[];
    prevStreamWildcardMentioned?: boolean;
    prevTopicWildcardMentionedUserIds?: number[];
    /**
     * Users whose alert words the new content holds (update_user_message_flags sets
     * `has_alert_word` on their rows, if they have one) and the users flagged before (cleared
     * first). Both absent when neither the old nor the new content alerted anyone.
     */
    alertWordUserIds?: number[];
    prevAlertWordUserIds?: number[];
    at: string;
  };
};

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

/**
 * Channel messages moved to another topic and/or channel (do_update_message, move part): ONE
 * event for the whole move, however many messages it names, appended once to the target
 * message's stream `message-<targetMessageId>` (see edit-message.decider.ts for why). The
 * projections apply it with one bulk update per store. A resolve or unresolve is a move whose
 * topics differ only by the "✔ " prefix (`resolution`).
 *
 * `userIdsLosingRows` / `userIdsGainingRows`: for a move between channels, the users whose
 * per-user rows of the moved messages are deleted (subscribers of the old channel who are not
 * subscribed to the new one) and the subscribers of a new channel with protected history who get
 * rows flagged read (Zulip's bulk_insert_all_ums with UserMessage.flags.read).
 */
export type MessagesMoved = {
  type: 'MessagesMoved';
  data: {
    realmId: number;
    targetMessageId: number;
    /** Ascending. */
    messageIds: number[];
    propagateMode: PropagateMode;
    origStreamId: number;
    origTopic: string;
    streamId: number;
    /** The target channel's name at the time (display_recipient). */
    streamName: string;
    topic: string;
    resolution: 'resolved' | 'unresolved' | null;
    userIdsLosingRows: number[];
    userIdsGainingRows: number[];
    editorId: number;
    at: string;
  };
};

/** A message was deleted (zerver/actions/message_delete.py do_delete_messages). Appended to `message-<id>`. */
export type MessageDeleted = {
  type: 'MessageDeleted';
  data: {
    realmId: number;
    messageId: number;
    senderId: number;
    messageType: 'stream' | 'private';
    streamId: number | null;
    topic: string | null;
    /** Who deleted it; null: the retention job (Zulip's archive_messages has no acting user). */
    actorId: number | null;
    at: string;
    /**
     * Why, when not a user's request: "retention", the message had outlived its retention period
     * (zerver/lib/retention.py). Clients get no event for those, as Zulip sends none.
     */
    reason?: 'retention';
  };
};

/** Every event of a message's stream `message-<id>`: its send's, then those editing and deleting add. */
export type MessageEditEvent = MessageSent | MessageContentEdited | MessagesMoved | MessageDeleted | UserTopicVisibilityPolicyChanged;
