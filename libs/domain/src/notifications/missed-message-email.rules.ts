import { VISIBILITY_POLICY, type VisibilityPolicy } from '../messages/messages.events';
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS } from '../presence/presence.rules';

/**
 * Why a message is mailed to a user who missed it (Zulip's NotificationTriggers, the email ones),
 * most salient first: get_email_notification_trigger picks the first that holds.
 */
export type EmailNotificationTrigger =
  | 'private_message'
  | 'mentioned'
  | 'topic_wildcard_mentioned_in_followed_topic'
  | 'stream_wildcard_mentioned_in_followed_topic'
  | 'topic_wildcard_mentioned'
  | 'stream_wildcard_mentioned'
  | 'followed_topic_email_notify'
  | 'stream_email_notify';

export const MENTION_TRIGGERS: readonly EmailNotificationTrigger[] = [
  'mentioned',
  'topic_wildcard_mentioned_in_followed_topic',
  'stream_wildcard_mentioned_in_followed_topic',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
];

/** The settings of UserProfile that decide missed-message emails. */
export type EmailNotificationSettings = {
  enable_offline_email_notifications: boolean;
  enable_stream_email_notifications: boolean;
  wildcard_mentions_notify: boolean;
  enable_followed_topic_email_notifications: boolean;
  enable_followed_topic_wildcard_mentions_notify: boolean;
};

/** One recipient of one message, as the notification decision sees it. */
export type EmailNotificationFacts = {
  userId: number;
  /** Who sent the message (or, for an edit, edited it): never notified (trivially_should_not_notify). */
  senderId: number;
  isBot: boolean;
  /** A direct message (1:1 or group). */
  direct: boolean;
  mentioned: boolean;
  streamWildcardMentioned: boolean;
  topicWildcardMentioned: boolean;
  /** The recipient muted the sender (get_muting_users). */
  senderMuted: boolean;
  settings: EmailNotificationSettings;
  /** Channel messages: the recipient's subscription (null settings follow the user's). */
  subscription?: { is_muted: boolean; email_notifications: boolean | null; wildcard_mentions_notify: boolean | null };
  /** Channel messages: the recipient's visibility policy for the topic. */
  visibilityPolicy?: VisibilityPolicy;
};

/**
 * zerver/lib/notification_data.py user_allows_notifications_in_StreamTopic: a muted topic, or a
 * muted channel unless the topic is unmuted, allows nothing; then the subscription's own setting,
 * then the user's.
 */
export function allowsNotificationsInTopic(isMuted: boolean, policy: VisibilityPolicy, channelSetting: boolean | null, userSetting: boolean): boolean {
  if (isMuted && policy !== VISIBILITY_POLICY.UNMUTED) return false;
  if (policy === VISIBILITY_POLICY.MUTED) return false;
  return channelSetting ?? userSetting;
}

/**
 * Whether (and why) the message is mailed to this recipient once they are idle
 * (UserMessageNotificationsData.from_user_id_sets + get_email_notification_trigger with idle=True;
 * the sets come from message_send.get_recipient_info). Never to bots, the sender, or a user who
 * muted the sender. Direct messages, mentions and wildcard mentions need
 * `enable_offline_email_notifications`; wildcard mentions also `wildcard_mentions_notify` (the
 * subscription's, else the user's; in a followed topic `enable_followed_topic_wildcard_mentions_notify`);
 * channel messages `email_notifications` (the subscription's, else `enable_stream_email_notifications`),
 * or in a followed topic `enable_followed_topic_email_notifications`.
 */
export function emailNotificationTrigger(f: EmailNotificationFacts): EmailNotificationTrigger | null {
  if (f.isBot || f.userId === f.senderId || f.senderMuted) return null;
  const offline = f.settings.enable_offline_email_notifications;
  if (f.direct) return offline ? 'private_message' : null;
  if (offline && f.mentioned) return 'mentioned';
  const sub = f.subscription;
  if (!sub) return null;
  const policy = f.visibilityPolicy ?? VISIBILITY_POLICY.INHERIT;
  const followed = policy === VISIBILITY_POLICY.FOLLOWED;
  const wildcardNotify = allowsNotificationsInTopic(sub.is_muted, policy, sub.wildcard_mentions_notify, f.settings.wildcard_mentions_notify);
  const followedWildcardNotify = followed && f.settings.enable_followed_topic_wildcard_mentions_notify;
  if (offline && f.topicWildcardMentioned && followedWildcardNotify) return 'topic_wildcard_mentioned_in_followed_topic';
  if (offline && f.streamWildcardMentioned && followedWildcardNotify) return 'stream_wildcard_mentioned_in_followed_topic';
  if (offline && f.topicWildcardMentioned && wildcardNotify) return 'topic_wildcard_mentioned';
  if (offline && f.streamWildcardMentioned && wildcardNotify) return 'stream_wildcard_mentioned';
  if (followed && f.settings.enable_followed_topic_email_notifications) return 'followed_topic_email_notify';
  if (allowsNotificationsInTopic(sub.is_muted, policy, sub.email_notifications, f.settings.enable_stream_email_notifications)) return 'stream_email_notify';
  return null;
}

/**
 * Whether the user counts as away (get_active_presence_idle_user_ids / filter_presence_idle_user_ids):
 * no active presence ping within OFFLINE_THRESHOLD_SECS (140 s). `lastActiveTime` in seconds, null
 * before the first ping.
 */
export const isPresenceIdle = (lastActiveTime: number | null, nowSeconds: number): boolean =>
  lastActiveTime === null || lastActiveTime < nowSeconds - PRESENCE_OFFLINE_THRESHOLD_SECONDS;

/**
 * When a new missed message is due to be mailed (zerver/worker/missedmessage_emails.py consume):
 * with the user's pending batch when one waits (its time does not move), else after the user's
 * `email_notifications_batching_period_seconds`.
 */
export const missedMessageDueAt = (pendingDueAt: number | null, now: number, batchingPeriodSeconds: number): number =>
  pendingDueAt ?? now + batchingPeriodSeconds * 1000;

/**
 * realm_name_in_email_notifications_policy (include_realm_name_in_missedmessage_emails_subject):
 * 1 automatic (when the address has active accounts in several organizations), 2 always, 3 never.
 */
export const includeRealmNameInSubject = (policy: number, activeAccountsWithAddress: number): boolean =>
  policy === 1 ? activeAccountsWithAddress > 1 : policy === 2;
