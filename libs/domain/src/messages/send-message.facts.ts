import type { EffectiveTopicsPolicy } from '../channels/channels.events';
import type { Role } from '../shared/actor';
import type { SystemGroupName } from '../shared/system-groups';
import type { BotType } from '../users/users.events';
import type { VisibilityPolicy } from './messages.events';
import type { MessageTypeParam } from './recipients.rules';
import type { LinkableChannel } from './rendering/render-message';
import type { LinkifierFacts } from '../linkifiers/linkify';
import type { TopicAutomationSettings } from './visibility.rules';

/** A user as sending needs to know them. */
export type UserFacts = {
  userId: number;
  email: string;
  fullName: string;
  role: Role;
  isActive: boolean;
  isBot: boolean;
  botType: BotType | null;
  botOwnerId: number | null;
};

/** A user group a message might mention: its members counting subgroups, and its can_mention_group for the sender. */
export type MentionableGroupFacts = { id: number; name: string; displayName?: string; deactivated?: boolean; memberIds: number[]; canMention: boolean };

/** A channel as sending needs to know it. */
export type ChannelFacts = {
  streamId: number;
  name: string;
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isWebPublic: boolean;
  isArchived: boolean;
};

/**
 * Everything a send is checked on: the request as sent (`type`, `to`, `topic`, `content`) and the
 * facts looked up for it (SendMessageFactsLoader). checkSendMessage applies Zulip's rules in
 * Zulip's order to these, so the same facts always give the same message or the same error. The
 * message id is not among them: it is taken only once the checks passed.
 */
export type SendMessageFacts = {
  realmId: number;
  now: string;
  client: string;
  sender: UserFacts;
  type: MessageTypeParam;
  to: string | undefined;
  topic: string | undefined;
  content: string;
  /** read_by_sender as sent, or the client heuristic (Client.default_read_by_sender). */
  readBySender: boolean;
  localId: string | null;
  queueId: string | null;
  /** The users `to` names for a direct message, by lower-cased email and by id; absent = no such user. */
  directory: { byEmail: Record<string, UserFacts>; byId: Record<number, UserFacts> };
  /** The channel `to` names (by id, or by name case-insensitively), or null when there is none. */
  channel: ChannelFacts | null;
  /** Active users subscribed to that channel. */
  subscriberIds: number[];
  /** The channel's can_send_message_group admits the sender (or, for a bot, its owner). */
  senderMayPost: boolean;
  /** The sender is a bot whose owner is subscribed (bots may send where their owner can). */
  botOwnerSubscribed: boolean;
  /** The sender's subscription to the channel is muted. */
  senderMutedChannel: boolean;
  /** Senders (and reactors) of the topic so far: its participants (participants_for_topic). */
  topicParticipantIds: number[];
  /** Some earlier message of the topic is visible to the sender (else sending initiates the topic). */
  topicHasVisibleMessages: boolean;
  /** Current visibility policies of the topic, by user (sender and possibly mentioned users). */
  topicPolicies: Record<number, VisibilityPolicy>;
  /** The sender is in the organization's can_mention_many_users_group. */
  canMentionManyUsers: boolean;
  /** Users and channels the content might mention or link to (possibleReferences). */
  mentionables: UserFacts[];
  /** Active user groups the content might mention (`@*name*`), with their members and whether the sender may mention them. */
  mentionableGroups: MentionableGroupFacts[];
  /**
   * The members of those groups who are human subscribers of the channel and not in
   * `mentionables` (whose bot status it already has): a group mention counts as a personal one for
   * following topics where mentioned, as Zulip adds group members to mentions_user_ids.
   * Absent: none (a direct message, or no group named).
   */
  humanGroupMemberIds?: number[];
  linkableChannels: LinkableChannel[];
  /** The organization's linkifiers, in order, applied by the rendering (absent: none). */
  linkifiers?: LinkifierFacts[];
  topicAutomation: Record<number, TopicAutomationSettings>;
  emptyTopicDisplayName: string;
  maxMessageLength: number;
  /**
   * The channel's topics policy (get_stream_topics_policy): the channel's own topics_policy, or the
   * organization's when the channel's is "inherit".
   */
  topicsPolicy: EffectiveTopicsPolicy;
  /**
   * The alert words of the organization's active users who have some, by user id
   * (alert_words_in_realm); recipientsAndFlags flags the recipients whose words the content holds.
   * Absent: nobody has alert words.
   */
  alertWords?: Record<number, string[]>;
  /**
   * The organization's direct message permissions (direct messages only; absent: role:everyone
   * for both, Zulip's defaults).
   */
  directMessagePolicy?: DirectMessagePolicyFacts;
};

/**
 * realm.direct_message_permission_group and direct_message_initiator_group (system groups), and
 * whether the conversation already holds a message (looked up only when the sender may not start one).
 */
export type DirectMessagePolicyFacts = { permissionGroup: SystemGroupName; initiatorGroup: SystemGroupName; conversationExists: boolean };
