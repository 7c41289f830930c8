import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

export type ChannelFolderChanges = { name?: string; description?: string; isArchived?: boolean };

/** `PATCH /channel_folders/{channel_folder_id}` (update_channel_folder). */
export class UpdateChannelFolderCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly folderId: number,
    readonly changes: ChannelFolderChanges,
  ) {
    super();
  }
}
