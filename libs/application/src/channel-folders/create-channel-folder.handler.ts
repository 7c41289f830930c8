import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { checkChannelFolderDescription, checkChannelFolderName } from '@app/domain';
import { ChannelDescriptionRenderer } from '../channels/channel-description.renderer';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { ID_ALLOCATOR } from '../ports/tokens';
import { DeciderCommands } from '../shared/decider-command-handler';
import { channelFoldersHandler } from './channel-folders.decider-handler';
import { CreateChannelFolderCommand } from './create-channel-folder.command';

@CommandHandler(CreateChannelFolderCommand)
export class CreateChannelFolderHandler implements ICommandHandler<CreateChannelFolderCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    private readonly renderer: ChannelDescriptionRenderer,
  ) {}

  async execute({ context: { actor }, name, description }: CreateChannelFolderCommand) {
    // Cheap checks before an id is spent and the description rendered; the decider checks again.
    checkChannelFolderDescription(description);
    checkChannelFolderName(name);
    const renderedDescription = await this.renderer.render(description, { realmId: actor.realmId, actorId: actor.userId });
    const folderId = await this.ids.next('channel_folder');
    await channelFoldersHandler(this.commands, actor, (meta) => ({ type: 'CreateChannelFolder', data: { ...meta, folderId, name, description, renderedDescription } }));
    return { folderId };
  }
}
