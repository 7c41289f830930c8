import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  ChannelsDoNotExistError,
  InsufficientPermissionError,
  canRemoveSubscribersFrom,
  channelNameKey,
  checkChannelName,
  concernsOthers,
  normalizeChannelName,
  subscriptionsDecider,
  subscriptionsStream,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { GlobalPosition } from '../ports/event-store.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { accessFactsOf } from '../channels/channel-format';
import { ChannelQueries } from '../channels/channel.queries';
import { UserQueries } from '../users/user.queries';
import { RemoveSubscriptionsCommand, type RemoveSubscriptionsResult } from './remove-subscriptions.command';
import { resolvePrincipals } from './principals';
import { SubscriptionQueries } from './subscription.queries';

/**
 * remove_subscriptions_backend: principals, then the channels (names, permission to remove others,
 * existence), all before anything is written; then one append per channel on its
 * `subscriptions-<channelId>` stream.
 */
@CommandHandler(RemoveSubscriptionsCommand)
export class RemoveSubscriptionsHandler implements ICommandHandler<RemoveSubscriptionsCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly users: UserQueries,
  ) {}

  async execute({ context: { actor }, request }: RemoveSubscriptionsCommand): Promise<RemoveSubscriptionsResult> {
    const now = this.clock.now().toISOString();
    const names = request.subscriptions.map(normalizeChannelName);
    const principals = request.principals ?? [];

    let people: { userId: number; botOwnerId: number | null }[];
    if (principals.length > 0) {
      people = (await resolvePrincipals(this.users, actor, principals)).map((u) => ({ userId: u.user_id, botOwnerId: u.bot_owner_id }));
    } else {
      people = actor.userId === null ? [] : [{ userId: actor.userId, botOwnerId: null }];
    }
    const removingOthers = concernsOthers(actor.userId, people, { ownBotsCount: false });

    // list_to_streams(unsubscribing_others=...): names, permission over the existing channels, then existence.
    for (const name of new Set(names)) checkChannelName(name);
    const existing = await this.channels.byNames(actor.realmId, names);
    const found = [...new Map(names.flatMap((n) => existing.get(channelNameKey(n)) ?? []).map((c) => [c.stream_id, c] as const)).values()];
    if (removingOthers) {
      const subscribedTo = await this.subscriptions.subscribedAmong(actor.userId, found.map((c) => c.stream_id));
      const targets = found.map((c) => ({ channel: accessFactsOf(c), isSubscribed: subscribedTo.has(c.stream_id) }));
      if (!canRemoveSubscribersFrom(actor, targets)) throw new InsufficientPermissionError();
    }
    const missing = names.filter((n) => !existing.has(channelNameKey(n)));
    if (missing.length > 0) throw new ChannelsDoNotExistError(missing);

    const removedFrom = new Map<number, Set<number>>();
    let last: GlobalPosition | undefined;
    for (const channel of found) {
      const { newEvents, position } = await this.runner.run(subscriptionsDecider, subscriptionsStream(channel.stream_id), {
        type: 'Unsubscribe',
        data: {
          realmId: actor.realmId, actor, now, removingOthers,
          channel: { channelId: channel.stream_id, name: channel.name, ...accessFactsOf(channel) },
          userIds: people.map((p) => p.userId),
        },
      });
      removedFrom.set(channel.stream_id, new Set(newEvents.flatMap((e) => (e.type === 'SubscriptionsDeactivated' ? e.data.userIds : []))));
      if (position !== undefined) last = position;
    }
    await this.projections.waitFor(last);

    const result: RemoveSubscriptionsResult = { removed: [], not_removed: [] };
    for (const { userId } of people) {
      for (const channel of found) {
        (removedFrom.get(channel.stream_id)!.has(userId) ? result.removed : result.not_removed).push(channel.name);
      }
    }
    return result;
  }
}
