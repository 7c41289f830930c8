import type { ChannelGroupSettings } from '../channels/channel-group-settings';
import type { SystemGroupName } from '../shared/system-groups';
import type { ChannelTopicsPolicy } from '../channels/channels.events';
import type { RealmGroupSettings, RealmMessagingSettings } from '../realms/realm-messaging-settings';
import type { VisibilityPolicy } from './messages.events';
import type { LinkableChannel } from './rendering/render-message';
import type { LinkifierFacts } from '../linkifiers/linkify';
import type { ChannelFacts, UserFacts, MentionableGroupFacts } from './send-message.facts';

/** A channel as editing and moving need to know it. */
export type EditChannelFacts = ChannelFacts & {
  groupSettings: Pick<
    ChannelGroupSettings,
    | 'can_administer_channel_group'
    | 'can_move_messages_out_of_channel_group'
    | 'can_move_messages_within_channel_group'
    | 'can_resolve_topics_group'
    | 'can_send_message_group'
  >;
  /** Active subscribers. */
  subscriberIds: number[];
  /** The channel's own topics_policy; absent: "inherit". */
  topicsPolicy?: ChannelTopicsPolicy;
};

/** PATCH /messages/{message_id} as sent (zerver/views/message_edit.py update_message_backend). */
export type EditMessageRequest = {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: string;
  prevContentSha256?: string;
  sendNotificationToOldThread: boolean;
  sendNotificationToNewThread: boolean;
};

/**
 * Everything an edit decides on besides the message's own stream: the request, the editor, the
 * organization's settings and the facts the handler read from read models. Where a message is
 * (`location`) comes from the message read model, because moves that named it may have been
 * appended to other messages' streams.
 */
export type EditMessageFacts = {
  realmId: number;
  messageId: number;
  now: string;
  editor: UserFacts;
  request: EditMessageRequest;
  /** SHA-256 (hex) of the message's current content (the handler hashes the folded state's content). */
  currentContentSha256: string;
  /** null for a direct message. */
  location: { streamId: number; topic: string } | null;
  origChannel: EditChannelFacts | null;
  /**
   * For a move to another channel: the old channel's past subscribers (a subscription no longer
   * active, or a deactivated user's), who lose their rows too (Zulip's old_stream_all_users reads
   * every Subscription row of the channel). Absent: none.
   */
  origChannelPastSubscriberIds?: number[];
  /** The channel `stream_id` names when the editor may access it (access_stream_by_id_for_message); null otherwise. */
  targetChannel: EditChannelFacts | null;
  settings: RealmMessagingSettings;
  realmGroups: RealmGroupSettings;
  /**
   * The ids of the message's topic that the editor can access, ascending: every one when the
   * editor may read the channel's history, else the ones the editor has a row for
   * (bulk_access_stream_messages_query). The target is among them.
   */
  topicMessageIds: number[];
  /**
   * For the change_all time limit: by cutoff (seconds since the epoch, `now` minus a move limit
   * and its 20 s grace, one entry per limit that is set), the first message id of the
   * organization sent after it (null: none). Ids grow in send order, so a topic's messages sent
   * after the cutoff are exactly its ids from that one on.
   */
  firstMessageIdSentAfter: Record<number, number | null>;
  /** The target topic (in the target channel) has messages the editor can access, other than the ones being moved. */
  targetTopicHasMessages: boolean;
  /** Visibility policies of the original and the target topic, by user (absent: inherit). */
  origTopicPolicies: Record<number, VisibilityPolicy>;
  targetTopicPolicies: Record<number, VisibilityPolicy>;
  /** For the content: users and channels it may mention (as on send). */
  mentionables: UserFacts[];
  /** Active user groups the new content might mention (as on send). */
  mentionableGroups: MentionableGroupFacts[];
  linkableChannels: LinkableChannel[];
  /** The organization's linkifiers, in order, applied by the rendering (absent: none). */
  linkifiers?: LinkifierFacts[];
  canMentionManyUsers: boolean;
  topicParticipantIds: number[];
  /** The alert words of the organization's active users, by user id (alert_words_in_realm); absent: none. */
  alertWords?: Record<number, string[]>;
  emptyTopicDisplayName: string;
  maxMessageLength: number;
};

/** DELETE /messages/{message_id}: the deleter, the organization's delete settings and the message's channel. */
export type DeleteMessageFacts = {
  realmId: number;
  messageId: number;
  now: string;
  actor: UserFacts;
  /** Where the message is now (null for a direct message). */
  location: { streamId: number; topic: string } | null;
  /** The channel's delete permissions (null for a direct message). */
  channelGroups: Pick<ChannelGroupSettings, 'can_delete_any_message_group' | 'can_delete_own_message_group'> | null;
  /** The message's sender is a bot the deleter owns. */
  senderIsOwnBot: boolean;
  /** Zulip's Realm.can_delete_any_message_group, can_delete_own_message_group and message_content_delete_limit_seconds (null: no limit). */
  canDeleteAnyMessageGroup: SystemGroupName;
  canDeleteOwnMessageGroup: SystemGroupName;
  deleteLimitSeconds: number | null;
  /**
   * An administrator deleting a whole topic (POST /streams/{id}/delete_topic, delete_in_topic):
   * Zulip checks only that the deleter is an administrator and may read the message, so the
   * per-message delete permissions are not applied, and a message already deleted (by a
   * concurrent request) is skipped rather than refused.
   */
  topicDeletion?: boolean;
};
