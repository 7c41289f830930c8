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
