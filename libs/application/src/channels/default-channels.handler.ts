import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';
import { DeciderCommands } from '../shared/decider-command-handler';
import { ChannelSubscribers } from './channel-subscribers';
import { channelsHandler } from './channels.decider-handler';
import { AddDefaultChannelCommand, RemoveDefaultChannelCommand } from './default-channels.command';

/**
 * Default channels live on the organization's `channels-<realmId>` stream, beside the privacy and
 * archiving they depend on: the decider refuses a private default channel, and takes a channel out
 * of the defaults when it is archived, in the same append.
 */
async function change(
  commands: DeciderCommands,
  subscriptions: ChannelSubscribers,
  { actor }: CommandContext,
  type: 'AddDefaultChannel' | 'RemoveDefaultChannel',
  channelId: number,
): Promise<void> {
  const isSubscribed = await subscriptions.isSubscribed(actor.userId, channelId);
  await channelsHandler(commands, actor, (meta) => ({ type, data: { ...meta, channelId, isSubscribed } }));
}

@CommandHandler(AddDefaultChannelCommand)
export class AddDefaultChannelHandler implements ICommandHandler<AddDefaultChannelCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly subscriptions: ChannelSubscribers,
  ) {}

  execute({ context, channelId }: AddDefaultChannelCommand) {
    return change(this.commands, this.subscriptions, context, 'AddDefaultChannel', channelId);
  }
}

@CommandHandler(RemoveDefaultChannelCommand)
export class RemoveDefaultChannelHandler implements ICommandHandler<RemoveDefaultChannelCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly subscriptions: ChannelSubscribers,
  ) {}

  execute({ context, channelId }: RemoveDefaultChannelCommand) {
    return change(this.commands, this.subscriptions, context, 'RemoveDefaultChannel', channelId);
  }
}
