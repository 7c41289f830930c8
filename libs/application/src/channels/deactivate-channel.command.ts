import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `DELETE /streams/{stream_id}` (deactivate_stream_backend): archive the channel, keeping its name and subscriptions. */
export class DeactivateChannelCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly channelId: number,
  ) {
    super();
  }
}
