import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** do_change_password: the password is hashed here, never stored or logged in clear. */
export class ChangeUserPasswordCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
    readonly password: string,
  ) {
    super();
  }
}
