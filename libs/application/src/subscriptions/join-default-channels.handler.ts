import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { operatorActor, pickColors, subscriptionsDecider, subscriptionsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { GlobalPosition } from '../ports/event-store.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { accessFactsOf } from '../channels/channel-format';
import { ChannelQueries } from '../channels/channel.queries';
import { JoinDefaultChannelsCommand } from '../users/join-default-channels.command';
import { SubscriptionQueries } from './subscription.queries';

/**
 * One append per default channel on `subscriptions-<channelId>`, as the system. Colors are picked
 * as for any first subscription (pick_colors over the colors the user already has). A channel that
 * stops being a default one meanwhile may still be joined: Zulip reads the list once, too.
 */
@CommandHandler(JoinDefaultChannelsCommand)
export class JoinDefaultChannelsHandler implements ICommandHandler<JoinDefaultChannelsCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
  ) {}

  async execute({ context, userId }: JoinDefaultChannelsCommand): Promise<number[]> {
    const realmId = context.actor.realmId;
    const defaults = await this.channels.defaultChannels(realmId);
    if (defaults.length === 0) return [];
    const mine = await this.subscriptions.allSubscriptionsOf([userId]);
    const colors = pickColors(mine.map((s) => s.color), {}, defaults.map((c) => c.stream_id));
    const actor = operatorActor(realmId);
    const now = this.clock.now().toISOString();
    let last: GlobalPosition | undefined;
    for (const channel of defaults) {
      const { position } = await this.runner.run(subscriptionsDecider, subscriptionsStream(channel.stream_id), {
        type: 'Subscribe',
        data: {
          realmId, actor, now, subscribingOthers: true,
          channel: { channelId: channel.stream_id, name: channel.name, ...accessFactsOf(channel) },
          users: [{ userId, color: colors[channel.stream_id] }],
        },
      });
      if (position !== undefined) last = position;
    }
    await this.projections.waitFor(last);
    return defaults.map((c) => c.stream_id);
  }
}
