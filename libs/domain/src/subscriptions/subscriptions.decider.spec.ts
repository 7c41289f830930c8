import { deciderSpec, subscriptionsCreated, subscriptionsDeactivated, subscriptionsReactivated } from '@app/testing';
import {
  GuestUsersNotAllowedError,
  InsufficientPermissionError,
  UnableToAccessChannelError,
  foldEvents,
  isActiveMember,
  subscriptionsDecider,
  type SubscriptionChannel,
  type SubscriptionsCommand,
  type Viewer,
} from '@app/domain';

const given = deciderSpec(subscriptionsDecider);
const NOW = '2026-02-03T04:05:06.000Z';

const hamlet: Viewer = { userId: 10, role: 'member' };
const cordelia: Viewer = { userId: 11, role: 'member' };
const iago: Viewer = { userId: 2, role: 'administrator' };
const polonius: Viewer = { userId: 12, role: 'guest' };

const general: SubscriptionChannel = {
  channelId: 1, name: 'general', inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false, creatorId: 10, isArchived: false,
};
const secret: SubscriptionChannel = { ...general, channelId: 2, name: 'secret', inviteOnly: true, historyPublicToSubscribers: false, creatorId: 11 };

const subscribe = (users: number[], actor: Viewer = hamlet, channel = general, colors: Record<number, string> = {}): SubscriptionsCommand => ({
  type: 'Subscribe',
  data: {
    realmId: 1, actor, now: NOW, channel,
    subscribingOthers: users.some((u) => u !== actor.userId),
    users: users.map((userId) => ({ userId, color: colors[userId] ?? '#76ce90' })),
  },
});
const unsubscribe = (userIds: number[], actor: Viewer = hamlet, channel = general): SubscriptionsCommand => ({
  type: 'Unsubscribe',
  data: { realmId: 1, actor, now: NOW, channel, removingOthers: userIds.some((u) => u !== actor.userId), userIds },
});

describe('subscriptionsDecider', () => {
  describe('Subscribe', () => {
    it('subscribes oneself to a public channel with the given color', () =>
      given([]).when(subscribe([10], hamlet, general, { 10: '#fae589' })).then([
        { type: 'SubscriptionsCreated', data: { realmId: 1, channelId: 1, subscriptions: [{ userId: 10, color: '#fae589' }], actorId: 10, at: NOW } },
      ]));

    it('subscribes others in one event', () =>
      given([]).when(subscribe([11, 12], hamlet)).thenMatches([
        { type: 'SubscriptionsCreated', data: { subscriptions: [{ userId: 11 }, { userId: 12 }] } },
      ]));

    it('does nothing for users already subscribed', () =>
      given([subscriptionsCreated(1, [10, 11])]).when(subscribe([10, 11])).thenNothingHappened());

    it('brings back users who left, keeping their old color, and creates the others', () => {
      const history = [subscriptionsCreated(1, [{ userId: 11, color: '#e4523d' }]), subscriptionsDeactivated(1, [11])];
      given(history).when(subscribe([11, 12])).then([
        { type: 'SubscriptionsCreated', data: { realmId: 1, channelId: 1, subscriptions: [{ userId: 12, color: '#76ce90' }], actorId: 10, at: NOW } },
        { type: 'SubscriptionsReactivated', data: { realmId: 1, channelId: 1, userIds: [11], actorId: 10, at: NOW } },
      ]);
      const state = foldEvents(subscriptionsDecider, [...history, subscriptionsReactivated(1, [11])]);
      expect(state.members[11]).toEqual({ active: true, color: '#e4523d' });
    });

    it('counts a user named twice once', () =>
      given([]).when(subscribe([11, 11])).thenMatches([{ data: { subscriptions: [{ userId: 11 }] } }]));

    it('refuses guests', () =>
      given([]).when(subscribe([12], polonius)).thenThrows(GuestUsersNotAllowedError, 'Not allowed for guest users'));

    it('lets a subscriber of a private channel add others', () =>
      given([subscriptionsCreated(2, [11])]).when(subscribe([10], cordelia, secret)).thenMatches([{ data: { subscriptions: [{ userId: 10 }] } }]));

    it('refuses outsiders of a private channel, administrators included', () => {
      given([]).when(subscribe([10], hamlet, secret)).thenThrows(UnableToAccessChannelError, 'Unable to access channel (secret).');
      given([subscriptionsCreated(2, [11])]).when(subscribe([10], iago, secret)).thenThrows(UnableToAccessChannelError);
    });

    it('lets the creator of a private channel, created in the same request, subscribe anyone to it', () =>
      given([]).when({ ...subscribe([10, 11], hamlet, secret), data: { ...subscribe([10, 11], hamlet, secret).data, createdByActor: true } } as SubscriptionsCommand)
        .thenMatches([{ data: { subscriptions: [{ userId: 10 }, { userId: 11 }] } }]));

    it('a former subscriber of a private channel is an outsider', () =>
      given([subscriptionsCreated(2, [10]), subscriptionsDeactivated(2, [10])]).when(subscribe([10], hamlet, secret)).thenThrows(UnableToAccessChannelError));

    it('the operator subscribes anyone anywhere', () =>
      given([]).when(subscribe([10, 11], { userId: null, role: 'operator' }, secret)).thenMatches([{ data: { actorId: null } }]));
  });

  describe('Unsubscribe', () => {
    it('unsubscribes oneself', () =>
      given([subscriptionsCreated(1, [10, 11])]).when(unsubscribe([10])).then([
        { type: 'SubscriptionsDeactivated', data: { realmId: 1, channelId: 1, userIds: [10], actorId: 10, at: NOW } },
      ]));

    it('does nothing for someone not subscribed', () =>
      given([subscriptionsCreated(1, [11]), subscriptionsDeactivated(1, [11])]).when(unsubscribe([11], iago)).thenNothingHappened());

    it('a guest may leave', () =>
      given([subscriptionsCreated(1, [12])]).when(unsubscribe([12], polonius)).thenMatches([{ data: { userIds: [12] } }]));

    it('an administrator removes others, even from a private channel they are not in', () =>
      given([subscriptionsCreated(2, [11])]).when(unsubscribe([11], iago, secret)).thenMatches([{ data: { userIds: [11] } }]));

    it('the creator removes others from their channel', () =>
      given([subscriptionsCreated(1, [11])]).when(unsubscribe([11], hamlet)).thenMatches([{ data: { userIds: [11] } }]));

    it('another member may not remove others', () =>
      given([subscriptionsCreated(1, [10, 11])]).when(unsubscribe([10], cordelia)).thenThrows(InsufficientPermissionError, 'Insufficient permission'));

    it('a guest may not remove others', () =>
      given([subscriptionsCreated(1, [10, 12])]).when(unsubscribe([10], polonius)).thenThrows(InsufficientPermissionError));
  });

  describe('evolve', () => {
    it('tracks who is subscribed now', () => {
      const state = foldEvents(subscriptionsDecider, [subscriptionsCreated(1, [10, 11]), subscriptionsDeactivated(1, [10])]);
      expect(isActiveMember(state, 10)).toBe(false);
      expect(isActiveMember(state, 11)).toBe(true);
      expect(isActiveMember(state, null)).toBe(false);
    });
  });
});
