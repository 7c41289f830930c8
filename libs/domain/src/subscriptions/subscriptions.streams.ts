/**
 * The subscriptions of one channel live on `subscriptions-<channelId>`: "already subscribed" and
 * "not subscribed" are facts about one channel's member set, and subscribing people to one channel
 * must not contend with any other channel. Events are batched per command (one event for all the
 * users subscribed at once), so folding a channel of 10,000 members costs one event per change
 * made, not one per member.
 */
export const subscriptionsStream = (channelId: number) => `subscriptions-${channelId}`;
