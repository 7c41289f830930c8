import { Command } from '@nestjs/cqrs';
import type { DeactivateUser } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

export type DeactivateUserResult = {
  /** Every account deactivated, the user's own bots first (Zulip deactivates a user's bots with them). */
  deactivatedUserIds: number[];
};

/**
 * Zulip's do_deactivate_user. `target` picks the endpoint's rules: `user` for
 * `DELETE /users/{user_id}`, `bot` for `DELETE /bots/{bot_id}`, `self` for `DELETE /users/me`, and
 * `any` (the default, used by the command line) for self rules on oneself and administrator rules
 * otherwise.
 */
export class DeactivateUserCommand extends Command<DeactivateUserResult> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
    readonly options: { target?: NonNullable<DeactivateUser['data']['target']> } = {},
  ) {
    super();
  }
}
