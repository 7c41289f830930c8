import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { channelFoldersHandler } from './channel-folders.decider-handler';
import { ReorderChannelFoldersCommand } from './reorder-channel-folders.command';

@CommandHandler(ReorderChannelFoldersCommand)
export class ReorderChannelFoldersHandler implements ICommandHandler<ReorderChannelFoldersCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, order }: ReorderChannelFoldersCommand): Promise<void> {
    await channelFoldersHandler(this.commands, actor, (meta) => ({ type: 'ReorderChannelFolders', data: { ...meta, order } }));
  }
}
