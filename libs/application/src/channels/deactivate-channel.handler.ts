import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { channelsHandler } from './channels.decider-handler';
import { ChannelSubscribers } from './channel-subscribers';
import { DeactivateChannelCommand } from './deactivate-channel.command';

@CommandHandler(DeactivateChannelCommand)
export class DeactivateChannelHandler implements ICommandHandler<DeactivateChannelCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly subscriptions: ChannelSubscribers,
  ) {}

  async execute({ context: { actor }, channelId }: DeactivateChannelCommand): Promise<void> {
    const isSubscribed = await this.subscriptions.isSubscribed(actor.userId, channelId);
    await channelsHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'DeactivateChannel',
      data: { realmId, actor, now, channelId, isSubscribed },
    }));
  }
}
