import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** POST /user_topics (update_user_topic): `topic` and `visibilityPolicy` as sent. */
export class SetUserTopicVisibilityPolicyCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly request: { streamId: number; topic: string; visibilityPolicy: number },
  ) {
    super();
  }
}

/**
 * The deprecated PATCH /users/me/subscriptions/muted_topics (update_muted_topic): the channel by
 * id or by name, `add` mutes and `remove` unmutes.
 */
export class UpdateMutedTopicCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly request: { streamId?: number; streamName?: string; topic: string; op: 'add' | 'remove' },
  ) {
    super();
  }
}
