import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /users/me/alert_words` (add_alert_words); answers the user's words afterwards. */
export class AddAlertWordsCommand extends Command<string[]> {
  constructor(
    readonly context: CommandContext,
    readonly words: string[],
  ) {
    super();
  }
}

/** `DELETE /users/me/alert_words` (remove_alert_words); answers the user's words afterwards. */
export class RemoveAlertWordsCommand extends Command<string[]> {
  constructor(
    readonly context: CommandContext,
    readonly words: string[],
  ) {
    super();
  }
}
