/** AuditLogEventType.SUBSCRIPTION_CREATED, for every user subscribed by one command (bulk_add_subscriptions). */
export type SubscriptionsCreated = {
  type: 'SubscriptionsCreated';
  data: {
    realmId: number;
    channelId: number;
    /** Each new subscription with the color picked for it (Zulip's pick_colors). */
    subscriptions: { userId: number; color: string }[];
    actorId: number | null;
    at: string;
  };
};

/** AuditLogEventType.SUBSCRIPTION_ACTIVATED: users who had left come back, keeping their settings. */
export type SubscriptionsReactivated = {
  type: 'SubscriptionsReactivated';
  data: { realmId: number; channelId: number; userIds: number[]; actorId: number | null; at: string };
};

/** AuditLogEventType.SUBSCRIPTION_DEACTIVATED (bulk_remove_subscriptions); the settings are kept for a return. */
export type SubscriptionsDeactivated = {
  type: 'SubscriptionsDeactivated';
  data: { realmId: number; channelId: number; userIds: number[]; actorId: number | null; at: string };
};

export type SubscriptionEvent = SubscriptionsCreated | SubscriptionsReactivated | SubscriptionsDeactivated;

export const SUBSCRIPTION_EVENT_TYPES: readonly SubscriptionEvent['type'][] = [
  'SubscriptionsCreated',
  'SubscriptionsReactivated',
  'SubscriptionsDeactivated',
];
