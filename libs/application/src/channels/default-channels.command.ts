import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /default_streams` (add_default_stream): new users will join the channel. */
export class AddDefaultChannelCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly channelId: number,
  ) {
    super();
  }
}

/** `DELETE /default_streams` (remove_default_stream). */
export class RemoveDefaultChannelCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly channelId: number,
  ) {
    super();
  }
}
