import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `PATCH /saved_snippets/{saved_snippet_id}` (edit_saved_snippet): either field may be absent. */
export class EditSavedSnippetCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly savedSnippetId: number,
    readonly changes: { title?: string; content?: string },
  ) {
    super();
  }
}
