import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';
import type { Principals } from './principals';

export type RemoveSubscriptionsResult = { removed: string[]; not_removed: string[] };

/** `DELETE /users/me/subscriptions` (zerver/views/streams.py remove_subscriptions_backend). */
export class RemoveSubscriptionsCommand extends Command<RemoveSubscriptionsResult> {
  constructor(
    readonly context: CommandContext,
    readonly request: { subscriptions: string[]; principals?: Principals },
  ) {
    super();
  }
}
