import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /saved_snippets` (create_saved_snippet). */
export class CreateSavedSnippetCommand extends Command<{ savedSnippetId: number }> {
  constructor(
    readonly context: CommandContext,
    readonly title: string,
    readonly content: string,
  ) {
    super();
  }
}
