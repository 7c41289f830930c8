import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { channelsDecider, channelsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import type { CommandContext } from '../shared/command-context';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { AddDefaultChannelCommand, RemoveDefaultChannelCommand } from './default-channels.command';

/**
 * Default channels live on the organization's `channels-<realmId>` stream, beside the privacy and
 * archiving they depend on: the decider refuses a private default channel, and takes a channel out
 * of the defaults when it is archived, in the same append.
 */
abstract class DefaultChannelsHandler {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly subscriptions: SubscriptionQueries,
  ) {}

  protected async run({ actor }: CommandContext, type: 'AddDefaultChannel' | 'RemoveDefaultChannel', channelId: number): Promise<void> {
    const isSubscribed = await this.subscriptions.isSubscribed(actor.userId, channelId);
    const { position } = await this.runner.run(channelsDecider, channelsStream(actor.realmId), {
      type,
      data: { realmId: actor.realmId, actor, now: this.clock.now().toISOString(), channelId, isSubscribed },
    });
    await this.projections.waitFor(position);
  }
}

@CommandHandler(AddDefaultChannelCommand)
export class AddDefaultChannelHandler extends DefaultChannelsHandler implements ICommandHandler<AddDefaultChannelCommand> {
  execute({ context, channelId }: AddDefaultChannelCommand) {
    return this.run(context, 'AddDefaultChannel', channelId);
  }
}

@CommandHandler(RemoveDefaultChannelCommand)
export class RemoveDefaultChannelHandler extends DefaultChannelsHandler implements ICommandHandler<RemoveDefaultChannelCommand> {
  execute({ context, channelId }: RemoveDefaultChannelCommand) {
    return this.run(context, 'RemoveDefaultChannel', channelId);
  }
}
