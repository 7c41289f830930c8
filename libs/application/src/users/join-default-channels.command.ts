import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/**
 * A new human account joins the organization's default channels
 * (set_up_streams_and_groups_for_new_human_user): every path that creates a user (POST /users, the
 * CLI, sign-up) dispatches it after the account exists. The acting user is the system (Zulip's
 * acting_user=None without an invitation). Answers the ids of the channels joined. Declared here,
 * by the area that sends it; the subscriptions area, above this one, handles it.
 */
export class JoinDefaultChannelsCommand extends Command<number[]> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
  ) {
    super();
  }
}
