import type { Provider } from '@nestjs/common';
import { AddSubscriptionsHandler } from './add-subscriptions.handler';
import { RemoveSubscriptionsHandler } from './remove-subscriptions.handler';
import { JoinDefaultChannelsHandler } from './join-default-channels.handler';
import { SubscriptionQueries } from './subscription.queries';
import { SubscriptionViews } from './subscription-views';

/** The subscriptions area's handlers and queries, registered by ApplicationModule. */
export const SUBSCRIPTIONS_HANDLERS: Provider[] = [AddSubscriptionsHandler, RemoveSubscriptionsHandler, JoinDefaultChannelsHandler];
export const SUBSCRIPTIONS_QUERIES: Provider[] = [SubscriptionQueries, SubscriptionViews];
