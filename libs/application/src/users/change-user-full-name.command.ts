import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/**
 * Zulip's do_change_full_name, reached from `PATCH /users/{user_id}` (administrators),
 * `PATCH /bots/{bot_id}` (bot owners) and `PATCH /settings` (the user). A bot may not take a name
 * an active account already has.
 */
export class ChangeUserFullNameCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
    readonly fullName: string,
  ) {
    super();
  }
}
