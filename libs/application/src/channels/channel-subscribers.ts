/**
 * Who is subscribed to the organization's channels, as the channels area reads it (access to
 * private channels, subscriber lists and counts, who hears about a change): the subscriptions read
 * model. A seam: the subscriptions area, above this one, binds its queries to it (subscriptions.area.ts).
 */
export abstract class ChannelSubscribers {
  abstract isSubscribed(userId: number | null, channelId: number): Promise<boolean>;
  abstract subscribedChannelIds(userId: number): Promise<Set<number>>;
  /** Current subscribers, deactivated users included (the channel_members read model). */
  abstract memberIds(channelId: number): Promise<number[]>;
  abstract subscriberIds(realmId: number, channelId: number): Promise<number[]>;
  abstract deactivatedSubscriptionCounts(realmId: number, channelIds: number[]): Promise<Map<number, number>>;
}
