import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/**
 * A confirmed change of address (do_change_user_delivery_email): appends UserEmailChanged to the
 * users stream, which refuses an address another account has taken meanwhile.
 */
export class ChangeUserEmailCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
    readonly newEmail: string,
  ) {
    super();
  }
}
