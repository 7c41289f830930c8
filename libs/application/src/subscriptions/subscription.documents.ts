/**
 * One user's subscription to one channel (id `<userId>:<channelId>`), with Zulip's per-user
 * settings (Subscription.API_FIELDS) at their defaults until the subscription-settings endpoints
 * change them. Kept when the user leaves (`active: false`), as Zulip keeps the row, so a return
 * restores the color and settings.
 */
export type SubscriptionDocument = {
  user_id: number;
  channel_id: number;
  realm_id: number;
  active: boolean;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  /** null: follow the user's global notification setting. */
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
};

export const subscriptionDocumentId = (userId: number, channelId: number) => `${userId}:${channelId}`;

/**
 * The member list of one channel in one document: the ids of every active subscription, ascending.
 * Sending a message to a channel of 10,000 subscribers reads this one document (about 60 KB of
 * JSON) instead of 10,000 rows.
 */
export type ChannelMembersDocument = { channel_id: number; realm_id: number; subscriber_ids: number[] };

export const SUBSCRIPTIONS = 'subscriptions';
export const CHANNEL_MEMBERS = 'channel_members';
