import type { Decider } from '../shared/decider';
import { InsufficientPermissionError } from '../users/users.errors';
import {
  canAddSubscribersTo,
  canRemoveSubscribersFrom,
  hasContentAccess,
  type ChannelAccessFacts,
  type Viewer,
} from '../channels/channels.access';
import type { SubscriptionEvent } from './subscriptions.events';
import { UnableToAccessChannelError } from './subscriptions.errors';
import { checkMayAddSubscriptions } from './subscriptions.rules';

type Meta = { realmId: number; actor: Viewer; now: string };
/** The channel as its metadata stream describes it, read by the handler. */
export type SubscriptionChannel = ChannelAccessFacts & { channelId: number; name: string };

/**
 * Subscribe users to one channel (bulk_add_subscriptions for one stream). `color` is used only for
 * a subscription created now; a returning user keeps the color they had.
 */
export type Subscribe = {
  type: 'Subscribe';
  data: Meta & {
    channel: SubscriptionChannel;
    subscribingOthers: boolean;
    /** The actor created the channel in this same request: "newly created streams are also authorized for the creator". */
    createdByActor?: boolean;
    users: { userId: number; color: string }[];
  };
};

/** Unsubscribe users from one channel (bulk_remove_subscriptions for one stream). */
export type Unsubscribe = {
  type: 'Unsubscribe';
  data: Meta & { channel: SubscriptionChannel; removingOthers: boolean; userIds: number[] };
};

export type SubscriptionsCommand = Subscribe | Unsubscribe;

export type Membership = { active: boolean; color: string };
/** Everyone who ever subscribed to the channel, with whether they still are. */
export type ChannelSubscriptions = { members: Record<number, Membership> };

export const isActiveMember = (state: ChannelSubscriptions, userId: number | null): boolean =>
  userId !== null && state.members[userId]?.active === true;

const unique = (ids: number[]) => [...new Set(ids)];

/** The member set of one channel (stream `subscriptions-<channelId>`). */
export const subscriptionsDecider: Decider<SubscriptionsCommand, SubscriptionEvent, ChannelSubscriptions> = {
  snapshot: { name: 'subscriptions', version: 1 },
  initialState: () => ({ members: {} }),

  decide: (command, state) => {
    const { realmId, actor, now: at, channel } = command.data;
    const base = { realmId, channelId: channel.channelId, actorId: actor.userId, at };
    const actorSubscribed = isActiveMember(state, actor.userId);
    switch (command.type) {
      case 'Subscribe': {
        // add_subscriptions_backend: guests are refused; then filter_stream_authorization_for_adding_subscribers.
        checkMayAddSubscriptions(actor);
        if (!command.data.createdByActor) {
          if (!hasContentAccess(actor, channel, actorSubscribed)) throw new UnableToAccessChannelError(channel.name);
          if (command.data.subscribingOthers && !canAddSubscribersTo(actor, channel)) throw new InsufficientPermissionError();
        }
        const created: { userId: number; color: string }[] = [];
        const reactivated: number[] = [];
        const seen = new Set<number>();
        for (const { userId, color } of command.data.users) {
          if (seen.has(userId)) continue;
          seen.add(userId);
          const membership = state.members[userId];
          if (!membership) created.push({ userId, color });
          else if (!membership.active) reactivated.push(userId);
        }
        const events: SubscriptionEvent[] = [];
        if (created.length > 0) events.push({ type: 'SubscriptionsCreated', data: { ...base, subscriptions: created } });
        if (reactivated.length > 0) events.push({ type: 'SubscriptionsReactivated', data: { ...base, userIds: reactivated } });
        return events;
      }
      case 'Unsubscribe': {
        if (command.data.removingOthers && !canRemoveSubscribersFrom(actor, [{ channel, isSubscribed: actorSubscribed }])) {
          throw new InsufficientPermissionError();
        }
        const removed = unique(command.data.userIds).filter((userId) => isActiveMember(state, userId));
        return removed.length > 0 ? [{ type: 'SubscriptionsDeactivated', data: { ...base, userIds: removed } }] : [];
      }
    }
  },

  evolve: (state, event) => {
    const members = { ...state.members };
    switch (event.type) {
      case 'SubscriptionsCreated':
        for (const { userId, color } of event.data.subscriptions) members[userId] = { active: true, color };
        return { members };
      case 'SubscriptionsReactivated':
        for (const userId of event.data.userIds) if (members[userId]) members[userId] = { ...members[userId], active: true };
        return { members };
      case 'SubscriptionsDeactivated':
        for (const userId of event.data.userIds) if (members[userId]) members[userId] = { ...members[userId], active: false };
        return { members };
      default:
        return state;
    }
  },
};
