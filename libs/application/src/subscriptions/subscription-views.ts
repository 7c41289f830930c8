import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import { ChannelViews } from '../channels/channel-views';
import { compareChannelNames, type ApiStream } from '../channels/channel-format';
import { SubscriptionQueries } from './subscription.queries';

/** Zulip's subscription object: the stream object plus the user's settings for it (SubscriptionStreamDict). */
export type ApiSubscription = ApiStream & {
  color: string;
  is_muted: boolean;
  /** Legacy inverse of is_muted. */
  in_home_view: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  subscribers?: number[];
};

/** `GET /users/me/subscriptions` (zerver/lib/subscription_info.py gather_subscriptions). */
@Injectable()
export class SubscriptionViews {
  constructor(
    private readonly subscriptions: SubscriptionQueries,
    private readonly channels: ChannelQueries,
    private readonly views: ChannelViews,
  ) {}

  /** The user's active subscriptions to unarchived channels, ordered by channel name. */
  async subscriptionsOf(actor: Actor, options: { includeSubscribers?: boolean } = {}): Promise<ApiSubscription[]> {
    if (actor.userId === null) return [];
    const subs = await this.subscriptions.activeSubscriptionsOf(actor.userId);
    const byChannel = new Map(subs.map((s) => [s.channel_id, s]));
    const channels = (await this.channels.byIds(actor.realmId, [...byChannel.keys()])).filter((c) => !c.is_archived);
    const streams = await this.views.streams(actor.realmId, channels);
    const deactivated = options.includeSubscribers ? await this.subscriptions.deactivatedUserIds(actor.realmId) : new Set<number>();
    const result = await Promise.all(
      streams.map(async (stream) => {
        const sub = byChannel.get(stream.stream_id)!;
        const subscription: ApiSubscription = {
          ...stream,
          color: sub.color,
          is_muted: sub.is_muted,
          in_home_view: !sub.is_muted,
          pin_to_top: sub.pin_to_top,
          desktop_notifications: sub.desktop_notifications,
          audible_notifications: sub.audible_notifications,
          push_notifications: sub.push_notifications,
          email_notifications: sub.email_notifications,
          wildcard_mentions_notify: sub.wildcard_mentions_notify,
        };
        // A subscriber may always list the subscribers of their channels (validate_user_access_to_subscribers).
        if (options.includeSubscribers) {
          subscription.subscribers = (await this.subscriptions.memberIds(stream.stream_id)).filter((id) => !deactivated.has(id));
        }
        return subscription;
      }),
    );
    return result.sort(compareChannelNames);
  }
}
