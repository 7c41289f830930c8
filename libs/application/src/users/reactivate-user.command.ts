import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/**
 * Zulip's `POST /users/{user_id}/reactivate` (reactivate_user_backend): the user's bots stay
 * deactivated; a bot whose owner is deactivated passes to the user who reactivates it.
 */
export class ReactivateUserCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
  ) {
    super();
  }
}
