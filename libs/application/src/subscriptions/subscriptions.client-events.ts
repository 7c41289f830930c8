import { Injectable } from '@nestjs/common';
import { hasMetadataAccess, type Role, type SubscriptionsCreated, type SubscriptionsDeactivated, type SubscriptionsReactivated } from '@app/domain';
import type { ChannelDocument } from '../channels/channel.documents';
import { accessFactsOf } from '../channels/channel-format';
import { ChannelQueries } from '../channels/channel.queries';
import { ChannelViews } from '../channels/channel-views';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { realmWide } from '../events/deliveries';
import { UserQueries } from '../users/user.queries';
import { SubscriptionQueries } from './subscription.queries';
import { SubscriptionViews } from './subscription-views';

/** bulk_add_subscriptions, bulk_remove_subscriptions: `subscription` events (zerver/actions/streams.py). */
@Injectable()
export class SubscriptionsClientEvents implements AreaClientEvents {
  constructor(
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly subscriptionViews: SubscriptionViews,
    private readonly channelViews: ChannelViews,
  ) {}

  clientEvents(): ClientEventMapperList {
    return {
      SubscriptionsCreated: (e: Recorded<SubscriptionsCreated>, c) => this.subscribed(e.data.realmId, e.data.channelId, e.data.subscriptions.map((s) => s.userId), c),
      SubscriptionsReactivated: (e: Recorded<SubscriptionsReactivated>, c) => this.subscribed(e.data.realmId, e.data.channelId, e.data.userIds, c),
      SubscriptionsDeactivated: (e: Recorded<SubscriptionsDeactivated>, c) => this.unsubscribed(e.data.realmId, e.data.channelId, e.data.userIds, c),
    };
  }

  /**
   * `subscription` op `add` to the new subscribers, `peer_add` to the others who can see it. A new
   * subscriber who could not see the channel before (a private one, unless an administrator; a public one for
   * a guest) first gets it in a `stream` `create` (send_stream_creation_events_for_previously_inaccessible_streams):
   * their register's `streams` has it from now on.
   */
  private async subscribed(realmId: number, channelId: number, userIds: number[], c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const out: ClientEventDelivery[] = [];
    const channel = await this.channels.byId(realmId, channelId);
    let stream: unknown;
    for (const userId of userIds) {
      // Each subscription object costs a few reads: only for users with a queue here.
      if (!c.hasQueues(userId)) continue;
      const user = await this.users.byId(realmId, userId);
      if (!user) continue;
      if (channel && !channel.is_archived && !visibleUnsubscribed(channel, userId, user.role_name)) {
        stream ??= (await this.channelViews.streams(realmId, [channel]))[0];
        out.push({ userIds: [userId], event: { type: 'stream', op: 'create', streams: [stream] } });
      }
      const subs = await this.subscriptionViews.subscriptionsOf({ realmId, userId, role: user.role_name, isBot: user.is_bot }, { includeSubscribers: true });
      const sub = subs.find((s) => s.stream_id === channelId);
      if (sub) out.push({ userIds: [userId], event: { type: 'subscription', op: 'add', subscriptions: [sub] } });
    }
    const peers = (await this.peersOf(realmId, channelId, c)).filter((id) => !userIds.includes(id));
    out.push({ userIds: peers, event: { type: 'subscription', op: 'peer_add', stream_ids: [channelId], user_ids: userIds } });
    return out;
  }

  private async unsubscribed(realmId: number, channelId: number, userIds: number[], c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    const peers = (await this.peersOf(realmId, channelId, c)).filter((id) => !userIds.includes(id));
    const out: ClientEventDelivery[] = [
      { userIds, event: { type: 'subscription', op: 'remove', subscriptions: [{ name: channel.name, stream_id: channelId }] } },
      { userIds: peers, event: { type: 'subscription', op: 'peer_remove', stream_ids: [channelId], user_ids: userIds } },
    ];
    // Those who cannot see the channel without the subscription lose it (send_stream_deletion_event):
    // their register's `streams` no longer has it.
    if (channel.is_archived) return out;
    const losing: number[] = [];
    for (const userId of userIds) {
      if (!c.hasQueues(userId)) continue;
      const user = await this.users.byId(realmId, userId);
      if (user && !visibleUnsubscribed(channel, userId, user.role_name)) losing.push(userId);
    }
    if (losing.length > 0) out.push({ userIds: losing, event: { type: 'stream', op: 'delete', streams: [{ stream_id: channelId }], stream_ids: [channelId] } });
    return out;
  }

  /** Who learns about subscriber changes: everyone for a public channel, its subscribers otherwise. */
  private async peersOf(realmId: number, channelId: number, c: ClientEventMapperContext): Promise<number[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    return channel.invite_only ? this.subscriptions.subscriberIds(realmId, channelId) : realmWide(c, realmId);
  }
}

/**
 * Whether the user sees the channel in their register's `streams` without being subscribed:
 * metadata access (administrators see every private channel; channels.register.ts).
 */
const visibleUnsubscribed = (channel: ChannelDocument, userId: number, role: Role) => hasMetadataAccess({ userId, role }, accessFactsOf(channel), false);
