import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { ownUserId } from '../shared/own-user-id';
import { EditSavedSnippetCommand } from './edit-saved-snippet.command';
import { savedSnippetsHandler } from './saved-snippets.decider-handler';

@CommandHandler(EditSavedSnippetCommand)
export class EditSavedSnippetHandler implements ICommandHandler<EditSavedSnippetCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, savedSnippetId, changes }: EditSavedSnippetCommand): Promise<void> {
    const userId = ownUserId(actor);
    await savedSnippetsHandler(this.commands, actor, ({ now }) => ({
      type: 'EditSavedSnippet',
      data: { userId, now, savedSnippetId, title: changes.title, content: changes.content },
    }));
  }
}
