import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `folder_id` of `PATCH /streams/{stream_id}` (do_change_stream_folder); null takes the channel out of its folder. */
export class ChangeChannelFolderCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly channelId: number,
    readonly folderId: number | null,
  ) {
    super();
  }
}
