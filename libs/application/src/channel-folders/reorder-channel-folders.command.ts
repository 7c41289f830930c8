import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `PATCH /channel_folders` (try_reorder_realm_channel_folders): every folder's id, in the new order. */
export class ReorderChannelFoldersCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly order: number[],
  ) {
    super();
  }
}
