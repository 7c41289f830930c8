import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /users/me/muted_users/{muted_user_id}` (mute_user). */
export class MuteUserCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly mutedUserId: number,
  ) {
    super();
  }
}

/** `DELETE /users/me/muted_users/{muted_user_id}` (unmute_user). */
export class UnmuteUserCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly mutedUserId: number,
  ) {
    super();
  }
}
