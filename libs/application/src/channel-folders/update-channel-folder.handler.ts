import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ChannelDescriptionRenderer } from '../channels/channel-description.renderer';
import { DeciderCommands } from '../shared/decider-command-handler';
import { channelFoldersHandler } from './channel-folders.decider-handler';
import { ChannelFolderQueries } from './channel-folder.queries';
import { UpdateChannelFolderCommand } from './update-channel-folder.command';

@CommandHandler(UpdateChannelFolderCommand)
export class UpdateChannelFolderHandler implements ICommandHandler<UpdateChannelFolderCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly folders: ChannelFolderQueries,
    private readonly renderer: ChannelDescriptionRenderer,
  ) {}

  async execute({ context: { actor }, folderId, changes }: UpdateChannelFolderCommand): Promise<void> {
    // Facts from other streams: the channels in the folder (only needed to archive it).
    const channelsInFolder = changes.isArchived === true ? await this.folders.channelsInFolder(actor.realmId, folderId) : 0;
    const description = changes.description === undefined
      ? undefined
      : { text: changes.description, rendered: await this.renderer.render(changes.description, { realmId: actor.realmId, actorId: actor.userId }) };
    await channelFoldersHandler(this.commands, actor, (meta) => ({
      type: 'UpdateChannelFolder',
      data: { ...meta, folderId, name: changes.name, description, isArchived: changes.isArchived, channelsInFolder },
    }));
  }
}
