import { SUBSCRIPTION_PROPERTY_EVENT_TYPES, subscriptionPropertiesDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { SubscriptionPropertiesClientEvents } from './subscription-properties.client-events';
import type { Provider } from '@nestjs/common';
import { UpdateSubscriptionPropertiesHandler } from './update-subscription-properties.handler';

const handlers: Provider[] = [UpdateSubscriptionPropertiesHandler];

/** A subscriber's properties of a channel (color, muted, notifications…). */
export const subscriptionPropertiesArea = defineArea({
  name: 'subscription-properties',
  providers: [...handlers],
  clientEvents: SubscriptionPropertiesClientEvents,
  deciders: [subscriptionPropertiesDecider],
  events: SUBSCRIPTION_PROPERTY_EVENT_TYPES,
});
