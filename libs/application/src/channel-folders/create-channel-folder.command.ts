import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /channel_folders/create` (check_add_channel_folder). */
export class CreateChannelFolderCommand extends Command<{ folderId: number }> {
  constructor(
    readonly context: CommandContext,
    readonly name: string,
    readonly description: string,
  ) {
    super();
  }
}
