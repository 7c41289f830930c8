import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ChannelFolderQueries } from './channel-folder.queries';
import { DeciderCommands } from '../shared/decider-command-handler';
import { channelsHandler } from '../channels/channels.decider-handler';
import { SubscriptionQueries } from '../subscriptions/subscription.queries';
import { ChangeChannelFolderCommand } from './change-channel-folder.command';

@CommandHandler(ChangeChannelFolderCommand)
export class ChangeChannelFolderHandler implements ICommandHandler<ChangeChannelFolderCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly subscriptions: SubscriptionQueries,
    private readonly folders: ChannelFolderQueries,
  ) {}

  async execute({ context: { actor }, channelId, folderId }: ChangeChannelFolderCommand): Promise<void> {
    const [isSubscribed, folder] = await Promise.all([
      this.subscriptions.isSubscribed(actor.userId, channelId),
      folderId === null ? null : this.folders.byId(actor.realmId, folderId),
    ]);
    await channelsHandler(this.commands, actor, ({ realmId, now }) => ({
      type: 'ChangeChannelFolder',
      data: { realmId, actor, now, channelId, isSubscribed, folderId, folderExists: folder !== null },
    }));
  }
}
