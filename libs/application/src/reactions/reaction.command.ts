import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /messages/{message_id}/reactions` (add_reaction). */
export class AddReactionCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly messageId: number,
    readonly request: { emojiName: string; emojiCode?: string; reactionType?: string },
  ) {
    super();
  }
}

/** `DELETE /messages/{message_id}/reactions` (remove_reaction). */
export class RemoveReactionCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly messageId: number,
    readonly request: { emojiName?: string; emojiCode?: string; reactionType?: string },
  ) {
    super();
  }
}
