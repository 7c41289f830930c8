import { SUBSCRIPTION_EVENT_TYPES, subscriptionsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { ChannelSubscribers } from '../channels/channel-subscribers';
import { AddSubscriptionsHandler } from './add-subscriptions.handler';
import { RemoveSubscriptionsHandler } from './remove-subscriptions.handler';
import { JoinDefaultChannelsHandler } from './join-default-channels.handler';
import { SubscriptionQueries } from './subscription.queries';
import { SubscriptionViews } from './subscription-views';
import { SubscriptionsClientEvents } from './subscriptions.client-events';
import { SubscriptionsRegisterSections } from './subscriptions.register';

const queries = [SubscriptionQueries, SubscriptionViews];
/** The channels area's seam: who is subscribed, from the subscriptions read model. */
const channelSeams = [{ provide: ChannelSubscribers, useExisting: SubscriptionQueries }];

/** Subscribing (which creates channels: the channel ids are the channels area's sequence) and unsubscribing. */
export const subscriptionsArea = defineArea({
  name: 'subscriptions',
  providers: [AddSubscriptionsHandler, RemoveSubscriptionsHandler, JoinDefaultChannelsHandler, ...queries, ...channelSeams],
  exports: queries,
  clientEvents: SubscriptionsClientEvents,
  registerSections: SubscriptionsRegisterSections,
  deciders: [subscriptionsDecider],
  events: SUBSCRIPTION_EVENT_TYPES,
});
