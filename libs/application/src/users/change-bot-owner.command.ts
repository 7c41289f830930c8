import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** Zulip's `PATCH /bots/{bot_id}` with `bot_owner_id` (do_change_bot_owner). */
export class ChangeBotOwnerCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly botId: number,
    readonly ownerId: number,
  ) {
    super();
  }
}
