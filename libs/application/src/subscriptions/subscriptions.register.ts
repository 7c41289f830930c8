import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import { ChannelViews } from '../channels/channel-views';
import type { AreaRegisterSections, RegisterSection, RegisterStateOptions } from '../events/area-contributions';
import { SubscriptionQueries } from './subscription.queries';
import { SubscriptionViews } from './subscription-views';

/**
 * `subscription` (gather_subscriptions): `subscriptions` (active), `unsubscribed` (channels the
 * user left that they can still see), `never_subscribed` (visible channels they never joined).
 */
@Injectable()
export class SubscriptionsRegisterSections implements AreaRegisterSections {
  constructor(
    private readonly subscriptionViews: SubscriptionViews,
    private readonly subscriptions: SubscriptionQueries,
    private readonly channels: ChannelQueries,
    private readonly channelViews: ChannelViews,
  ) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'subscription', read: (actor, options) => this.subscriptionsState(actor, options) }];
  }

  private async subscriptionsState(actor: Actor, options: RegisterStateOptions): Promise<Record<string, unknown>> {
    const subscriptions = await this.subscriptionViews.subscriptionsOf(actor, { includeSubscribers: options.includeSubscribers });
    if (actor.userId === null) return { subscriptions, unsubscribed: [], never_subscribed: [] };
    const all = await this.subscriptions.allSubscriptionsOf([actor.userId]);
    const left = new Set(all.filter((s) => !s.active).map((s) => s.channel_id));
    const ever = new Set(all.map((s) => s.channel_id));
    const visible = (await this.channels.channelsVisibleTo(actor)).filter((c) => !c.is_archived);
    const streams = await this.channelViews.streams(actor.realmId, visible);
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    return {
      subscriptions,
      unsubscribed: streams.filter((s) => left.has(s.stream_id)).sort(byName),
      never_subscribed: streams.filter((s) => !ever.has(s.stream_id)).sort(byName),
    };
  }
}
