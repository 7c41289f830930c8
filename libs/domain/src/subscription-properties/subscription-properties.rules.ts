import {
  InvalidSubscriptionColorError,
  SubscriptionPropertyNotBooleanError,
  UnknownSubscriptionPropertyError,
} from './subscription-properties.errors';

/** The boolean properties of SubscriptionPropertyChangeRequest. */
export const BOOLEAN_SUBSCRIPTION_PROPERTIES = [
  'in_home_view',
  'is_muted',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'pin_to_top',
  'wildcard_mentions_notify',
] as const;

export const SUBSCRIPTION_PROPERTIES = ['color', ...BOOLEAN_SUBSCRIPTION_PROPERTIES] as const;
export type SubscriptionProperty = (typeof SUBSCRIPTION_PROPERTIES)[number];
/** What the subscription stores: `in_home_view` is the legacy inverse of `is_muted`. */
export type StoredSubscriptionProperty = Exclude<SubscriptionProperty, 'in_home_view'>;
export type SubscriptionPropertyValue = boolean | string;

/** The stored settings of one subscription (Subscription.API_FIELDS); the notification booleans may be null (inherit). */
export type SubscriptionSettings = {
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
};

/** zerver/lib/validator.py check_color: `#` and three to six hexadecimal digits. */
export const isSubscriptionColor = (value: string): boolean => /^#[a-fA-F0-9]{3,6}$/.test(value);

/**
 * SubscriptionPropertyChangeRequest.validate_terms: `color` is a hex color (the value as text, so
 * `true` is no color), the other known properties take booleans, anything else is unknown.
 */
export function checkSubscriptionPropertyChange(property: string, value: unknown): { property: SubscriptionProperty; value: SubscriptionPropertyValue } {
  if (property === 'color') {
    const text = typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value);
    if (!isSubscriptionColor(text)) throw new InvalidSubscriptionColorError();
    return { property, value: text };
  }
  if ((BOOLEAN_SUBSCRIPTION_PROPERTIES as readonly string[]).includes(property)) {
    if (typeof value !== 'boolean') throw new SubscriptionPropertyNotBooleanError(property);
    return { property: property as SubscriptionProperty, value };
  }
  throw new UnknownSubscriptionPropertyError(property);
}
