import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { USERS, type UserDocument } from '../users/user.documents';
import {
  CHANNEL_MEMBERS,
  SUBSCRIPTIONS,
  subscriptionDocumentId,
  type ChannelMembersDocument,
  type SubscriptionDocument,
} from './subscription.documents';

/** SQLite binds at most a few hundred parameters per query comfortably; larger id lists go in chunks. */
const CHUNK = 500;
const chunks = <T>(items: T[]): T[][] => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * Reads of the subscription read models. For the messaging core:
 * - `subscriberIds(channelId)`: who receives a message sent to the channel (active users with an
 *   active subscription), from one compact document per channel;
 * - `isSubscribed(userId, channelId)`: one document read by id.
 */
@Injectable()
export class SubscriptionQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  async subscription(userId: number, channelId: number): Promise<SubscriptionDocument | null> {
    return this.readStore.get<SubscriptionDocument>(SUBSCRIPTIONS, subscriptionDocumentId(userId, channelId));
  }

  /** Whether the user has an active subscription to the channel. */
  async isSubscribed(userId: number | null, channelId: number): Promise<boolean> {
    if (userId === null) return false;
    return (await this.subscription(userId, channelId))?.active === true;
  }

  /** The user's active subscriptions (any channel, archived ones included). */
  activeSubscriptionsOf(userId: number): Promise<SubscriptionDocument[]> {
    return this.readStore.find<SubscriptionDocument>(SUBSCRIPTIONS, {
      where: { user_id: userId, active: true },
      orderBy: [{ field: 'channel_id', direction: 'asc' }],
    });
  }

  async subscribedChannelIds(userId: number): Promise<Set<number>> {
    return new Set((await this.activeSubscriptionsOf(userId)).map((s) => s.channel_id));
  }

  /** Which of the given channels the user is subscribed to. */
  async subscribedAmong(userId: number | null, channelIds: number[]): Promise<Set<number>> {
    if (userId === null || channelIds.length === 0) return new Set();
    const docs = await this.readStore.getMany<SubscriptionDocument>(SUBSCRIPTIONS, channelIds.map((id) => subscriptionDocumentId(userId, id)));
    return new Set(docs.filter((d) => d.doc.active).map((d) => d.doc.channel_id));
  }

  /** Every subscription, active or not, of these users (Zulip's get_used_colors_for_user_ids reads them all). */
  async allSubscriptionsOf(userIds: number[]): Promise<SubscriptionDocument[]> {
    const result: SubscriptionDocument[] = [];
    for (const part of chunks([...new Set(userIds)])) {
      result.push(...(await this.readStore.find<SubscriptionDocument>(SUBSCRIPTIONS, { where: { user_id: { $in: part } } })));
    }
    return result;
  }

  /**
   * The channel's past subscribers, ascending: users whose subscription is no longer active, and
   * deactivated users with an active one (with subscriberIds: Zulip's every Subscription row of
   * the channel, as do_update_message reads them for the users losing a moved message).
   */
  async pastSubscriberIds(realmId: number, channelId: number): Promise<number[]> {
    const inactive = await this.readStore.find<SubscriptionDocument>(SUBSCRIPTIONS, { where: { channel_id: channelId, active: false } });
    const current = new Set(await this.subscriberIds(realmId, channelId));
    const ids = new Set([...inactive.map((s) => s.user_id), ...(await this.memberIds(channelId)).filter((id) => !current.has(id))]);
    return [...ids].filter((id) => !current.has(id)).sort((a, b) => a - b);
  }

  /** Ids of every active subscription of the channel, deactivated users included, ascending. */
  async memberIds(channelId: number): Promise<number[]> {
    return (await this.readStore.get<ChannelMembersDocument>(CHANNEL_MEMBERS, String(channelId)))?.subscriber_ids ?? [];
  }

  /**
   * The channel's subscribers, ascending: users with an active subscription who are active users
   * themselves (Zulip's get_active_subscriptions_for_stream_id without deactivated users). One
   * document read plus the organization's deactivated accounts, which are few.
   */
  async subscriberIds(realmId: number, channelId: number): Promise<number[]> {
    const [members, deactivated] = await Promise.all([this.memberIds(channelId), this.deactivatedUserIds(realmId)]);
    return deactivated.size === 0 ? members : members.filter((id) => !deactivated.has(id));
  }

  /** Deactivated accounts of the organization (read from the users read model). */
  async deactivatedUserIds(realmId: number): Promise<Set<number>> {
    const users = await this.readStore.find<UserDocument>(USERS, { where: { realm_id: realmId, is_active: false } });
    return new Set(users.map((u) => u.user_id));
  }

  /**
   * For each channel, how many of its active subscriptions belong to deactivated users, so that
   * counts can leave them out as Zulip's subscriber_count does.
   */
  async deactivatedSubscriptionCounts(realmId: number, channelIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    const deactivated = [...(await this.deactivatedUserIds(realmId))];
    if (deactivated.length === 0 || channelIds.length === 0) return counts;
    const wanted = new Set(channelIds);
    for (const part of chunks(deactivated)) {
      const subs = await this.readStore.find<SubscriptionDocument>(SUBSCRIPTIONS, { where: { user_id: { $in: part }, active: true } });
      for (const s of subs) if (wanted.has(s.channel_id)) counts.set(s.channel_id, (counts.get(s.channel_id) ?? 0) + 1);
    }
    return counts;
  }
}
