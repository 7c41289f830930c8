import { Injectable } from '@nestjs/common';
import type { SubscriptionsCreated, SubscriptionsDeactivated, SubscriptionsReactivated } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import { ChannelViews } from '../channels/channel-views';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapper, ClientEventMapperContext, Recorded } from '../events/client-event-registry';
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

  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      SubscriptionsCreated: (e: Recorded<SubscriptionsCreated>, c) => this.subscribed(e.data.realmId, e.data.channelId, e.data.subscriptions.map((s) => s.userId), c),
      SubscriptionsReactivated: (e: Recorded<SubscriptionsReactivated>, c) => this.subscribed(e.data.realmId, e.data.channelId, e.data.userIds, c),
      SubscriptionsDeactivated: (e: Recorded<SubscriptionsDeactivated>, c) => this.unsubscribed(e.data.realmId, e.data.channelId, e.data.userIds, c),
    };
  }

  /**
   * `subscription` op `add` to the new subscribers, `peer_add` to the others who can see it. A new
   * subscriber who could not see the channel before (any non-administrator for a private channel,
   * a guest for a public one) first gets its `stream` `create`, as Zulip's
   * send_stream_creation_events_for_previously_inaccessible_streams does: a client (the mobile app)
   * adds a subscription only to a channel it knows.
   */
  private async subscribed(realmId: number, channelId: number, userIds: number[], c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const out: ClientEventDelivery[] = [];
    const channel = await this.channels.byId(realmId, channelId);
    let created: { type: string; op: string; streams: unknown[] } | undefined;
    for (const userId of userIds) {
      // Each subscription object costs a few reads: only for users with a queue here.
      if (!c.hasQueues(userId)) continue;
      const user = await this.users.byId(realmId, userId);
      if (!user) continue;
      const newlyVisible = channel && (channel.invite_only ? !(user.is_admin || user.is_owner) : user.is_guest && !channel.is_web_public);
      if (channel && newlyVisible) {
        created ??= { type: 'stream', op: 'create', streams: await this.channelViews.streams(realmId, [channel]) };
        out.push({ userIds: [userId], event: created });
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
    return [
      { userIds, event: { type: 'subscription', op: 'remove', subscriptions: [{ name: channel.name, stream_id: channelId }] } },
      { userIds: peers, event: { type: 'subscription', op: 'peer_remove', stream_ids: [channelId], user_ids: userIds } },
    ];
  }

  /** Who learns about subscriber changes: everyone for a public channel, its subscribers otherwise. */
  private async peersOf(realmId: number, channelId: number, c: ClientEventMapperContext): Promise<number[]> {
    const channel = await this.channels.byId(realmId, channelId);
    if (!channel) return [];
    return channel.invite_only ? this.subscriptions.subscriberIds(realmId, channelId) : realmWide(c, realmId);
  }
}
