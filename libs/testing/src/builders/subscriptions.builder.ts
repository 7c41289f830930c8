import type { SubscriptionsCreated, SubscriptionsDeactivated, SubscriptionsReactivated } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** Users subscribed to channel `channelId` (colors from the start of Zulip's palette unless given). */
export const subscriptionsCreated = (
  channelId: number,
  users: (number | { userId: number; color: string })[],
  actorId: number | null = 10,
): SubscriptionsCreated => ({
  type: 'SubscriptionsCreated',
  data: {
    realmId: 1, channelId, actorId, at: AT,
    subscriptions: users.map((u) => (typeof u === 'number' ? { userId: u, color: '#76ce90' } : u)),
  },
});

export const subscriptionsReactivated = (channelId: number, userIds: number[], actorId: number | null = 10): SubscriptionsReactivated => ({
  type: 'SubscriptionsReactivated', data: { realmId: 1, channelId, userIds, actorId, at: AT },
});

export const subscriptionsDeactivated = (channelId: number, userIds: number[], actorId: number | null = 10): SubscriptionsDeactivated => ({
  type: 'SubscriptionsDeactivated', data: { realmId: 1, channelId, userIds, actorId, at: AT },
});
