import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `DELETE /saved_snippets/{saved_snippet_id}` (delete_saved_snippet). */
export class DeleteSavedSnippetCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly savedSnippetId: number,
  ) {
    super();
  }
}
