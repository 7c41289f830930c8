import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { channelsDecider, channelsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { DeactivateChannelCommand } from './deactivate-channel.command';

@CommandHandler(DeactivateChannelCommand)
export class DeactivateChannelHandler implements ICommandHandler<DeactivateChannelCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly subscriptions: SubscriptionQueries,
  ) {}

  async execute({ context: { actor }, channelId }: DeactivateChannelCommand): Promise<void> {
    const isSubscribed = await this.subscriptions.isSubscribed(actor.userId, channelId);
    const { position } = await this.runner.run(channelsDecider, channelsStream(actor.realmId), {
      type: 'DeactivateChannel',
      data: { realmId: actor.realmId, actor, now: this.clock.now().toISOString(), channelId, isSubscribed },
    });
    await this.projections.waitFor(position);
  }
}
