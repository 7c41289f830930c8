import { subscriptionPropertiesDecider, subscriptionPropertiesStream } from '@app/domain';
import { DeciderCommandHandler } from '../shared/decider-command-handler';

/** A user's changes of their subscriptions' settings: one append on `subscription_properties-<userId>`. */
export const subscriptionPropertiesHandler = DeciderCommandHandler({ ...subscriptionPropertiesDecider, mapToStreamId: ({ data }) => subscriptionPropertiesStream(data.userId) });
