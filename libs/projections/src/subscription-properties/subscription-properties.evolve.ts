import type { SubscriptionPropertyChanged } from '@app/domain';
import { type SubscriptionDocument, subscriptionDocumentId } from '@app/application';

/**
 * How a subscription document (written by the subscriptions projection) follows the user's changes
 * of its settings. The subscriptions projection applies these events itself, so that the changes
 * of the member set and of the settings of one document are applied in log order, in one place.
 */
export const subscriptionPropertyDocumentId = ({ userId, channelId }: SubscriptionPropertyChanged['data']): string => subscriptionDocumentId(userId, channelId);

export function applySubscriptionProperty(doc: SubscriptionDocument | null, { property, newValue }: SubscriptionPropertyChanged['data']): SubscriptionDocument | null {
  if (!doc) return doc;
  if (property === 'in_home_view') return { ...doc, is_muted: !newValue };
  return { ...doc, [property]: newValue };
}
