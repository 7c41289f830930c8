import type { Provider } from '@nestjs/common';
import { UpdateSubscriptionPropertiesHandler } from './update-subscription-properties.handler';

/** The subscription-properties area's handlers, registered by ApplicationModule. */
export const SUBSCRIPTION_PROPERTIES_HANDLERS: Provider[] = [UpdateSubscriptionPropertiesHandler];
