import { SUBSCRIPTION_EVENT_TYPES, SUBSCRIPTION_PROPERTY_EVENT_TYPES, type SubscriptionEvent, type SubscriptionPropertyEvent } from '@app/domain';
import { CHANNEL_MEMBERS, SUBSCRIPTIONS, subscriptionDocumentId, type ChannelMembersDocument, type SubscriptionDocument } from '@app/application';
import { defineProjection } from '../shared/projection';
import { applySubscriptionProperty, subscriptionPropertyDocumentId } from '../subscription-properties/subscription-properties.evolve';

const userIdsOf = (e: SubscriptionEvent): number[] =>
  e.type === 'SubscriptionsCreated' ? e.data.subscriptions.map((s) => s.userId) : e.data.userIds;

/** One document per (user, channel) subscription, active or not, with the user's settings for it. */
export const subscriptionsProjection = defineProjection<SubscriptionDocument, SubscriptionEvent | SubscriptionPropertyEvent, Map<number, string> | undefined>({
  name: 'subscriptions',
  collection: {
    name: SUBSCRIPTIONS,
    // A user's subscriptions (GET /users/me/subscriptions, colors in use) and a channel's (by id).
    fields: [
      { name: 'user_id', type: 'number' },
      { name: 'channel_id', type: 'number' },
      { name: 'active', type: 'boolean' },
    ],
    compoundIndexes: [['user_id', 'active'], ['channel_id', 'active']],
  },
  // Plus the user's changes of a subscription's settings (subscription_properties-<userId>).
  handles: [...SUBSCRIPTION_EVENT_TYPES, ...SUBSCRIPTION_PROPERTY_EVENT_TYPES],
  idsOf: (e) => {
    if (e.type === 'SubscriptionPropertyChanged') return [subscriptionPropertyDocumentId(e.data)];
    return userIdsOf(e).map((userId) => subscriptionDocumentId(userId, e.data.channelId));
  },
  // Colors by user of a SubscriptionsCreated, once per event (an event may carry 10,000 users).
  prepare: (e) => (e.type === 'SubscriptionsCreated' ? new Map(e.data.subscriptions.map((s) => [s.userId, s.color])) : undefined),
  evolve: (doc, e, id, colors) => {
    switch (e.type) {
      case 'SubscriptionPropertyChanged':
        return applySubscriptionProperty(doc, e.data);
      case 'SubscriptionsCreated': {
        const userId = Number(id.split(':')[0]);
        const color = colors!.get(userId)!;
        return {
          user_id: userId,
          channel_id: e.data.channelId,
          realm_id: e.data.realmId,
          active: true,
          color,
          is_muted: false,
          pin_to_top: false,
          desktop_notifications: null,
          audible_notifications: null,
          push_notifications: null,
          email_notifications: null,
          wildcard_mentions_notify: null,
        };
      }
      case 'SubscriptionsReactivated':
        return doc && { ...doc, active: true };
      case 'SubscriptionsDeactivated':
        return doc && { ...doc, active: false };
      default:
        return doc;
    }
  },
});

/** Insert/remove in an ascending id list without duplicates. */
const withIds = (ids: number[], added: number[]): number[] => [...new Set([...ids, ...added])].sort((a, b) => a - b);
const withoutIds = (ids: number[], removed: number[]): number[] => {
  const gone = new Set(removed);
  return ids.filter((id) => !gone.has(id));
};

/** Each channel's active subscribers in one compact document (see ChannelMembersDocument). */
export const channelMembersProjection = defineProjection<ChannelMembersDocument, SubscriptionEvent>({
  name: 'channel_members',
  // Read only by channel id (the document id).
  collection: { name: CHANNEL_MEMBERS, fields: [] },
  handles: SUBSCRIPTION_EVENT_TYPES,
  idsOf: (e) => [String(e.data.channelId)],
  evolve: (doc, e) => {
    const current = doc ?? { channel_id: e.data.channelId, realm_id: e.data.realmId, subscriber_ids: [] };
    if (e.type === 'SubscriptionsDeactivated') return { ...current, subscriber_ids: withoutIds(current.subscriber_ids, e.data.userIds) };
    return { ...current, subscriber_ids: withIds(current.subscriber_ids, userIdsOf(e)) };
  },
});
