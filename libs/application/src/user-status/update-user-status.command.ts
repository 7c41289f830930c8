import { Command } from '@nestjs/cqrs';
import type { UserStatusInput } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/**
 * `POST /users/me/status` (update_user_status_backend; `away` is the deprecated inverse of the
 * `presence_enabled` setting) and, with `targetUserId`, `POST /users/{user_id}/status`
 * (update_user_status_admin, administrators).
 */
export class UpdateUserStatusCommand extends Command<Record<string, never>> {
  constructor(
    readonly context: CommandContext,
    readonly input: UserStatusInput,
    readonly targetUserId?: number,
  ) {
    super();
  }
}
