import { Command } from '@nestjs/cqrs';
import type { Role } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/**
 * Zulip's `PATCH /users/{user_id}` with `role` (update_user_backend) and `PATCH /bots/{bot_id}`:
 * only owners grant or revoke the owner role; the only owner keeps it.
 */
export class ChangeUserRoleCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
    readonly role: Role,
  ) {
    super();
  }
}
