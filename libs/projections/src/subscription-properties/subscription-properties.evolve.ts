import { SUBSCRIPTION_PROPERTY_EVENT_TYPES, type SubscriptionPropertyChanged } from '@app/domain';
import { type RecordedEvent, type SubscriptionDocument, subscriptionDocumentId } from '@app/application';

/**
 * How a subscription document (written by the subscriptions projection) follows the user's changes
 * of its settings. The subscriptions projection applies these events itself, so that the changes
 * of the member set and of the settings of one document are applied in log order, in one place.
 */
export const isSubscriptionPropertyEvent = (event: RecordedEvent): boolean =>
  (SUBSCRIPTION_PROPERTY_EVENT_TYPES as readonly string[]).includes(event.type);

export const subscriptionPropertyDocumentId = (event: RecordedEvent): string => {
  const data = event.data as SubscriptionPropertyChanged['data'];
  return subscriptionDocumentId(data.userId, data.channelId);
};

export function applySubscriptionProperty(doc: SubscriptionDocument | null, event: RecordedEvent): SubscriptionDocument | null {
  if (!doc) return doc;
  const { property, newValue } = event.data as SubscriptionPropertyChanged['data'];
  if (property === 'in_home_view') return { ...doc, is_muted: !newValue };
  return { ...doc, [property]: newValue };
}
