/**
 * A user's settings for their subscriptions live on `subscription_properties-<userId>`: they are
 * the user's alone, so changing them never contends with the channel's member set
 * (`subscriptions-<channelId>`), which every subscriber shares.
 */
export const subscriptionPropertiesStream = (userId: number) => `subscription_properties-${userId}`;
