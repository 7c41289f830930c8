import type { SubscriptionProperty } from './subscription-properties.rules';

/**
 * AuditLogEventType.SUBSCRIPTION_PROPERTY_CHANGED (do_change_subscription_property). A change of
 * `is_muted` or `in_home_view` is recorded as two of these, `in_home_view` first and `is_muted`
 * second, each in its own terms: one per subscription update event clients get since feature
 * level 139.
 */
export type SubscriptionPropertyChanged = {
  type: 'SubscriptionPropertyChanged';
  data: {
    realmId: number;
    userId: number;
    channelId: number;
    property: SubscriptionProperty;
    oldValue: boolean | string | null;
    newValue: boolean | string;
    actorId: number | null;
    at: string;
  };
};

export type SubscriptionPropertyEvent = SubscriptionPropertyChanged;

export const SUBSCRIPTION_PROPERTY_EVENT_TYPES: readonly SubscriptionPropertyEvent['type'][] = ['SubscriptionPropertyChanged'];
