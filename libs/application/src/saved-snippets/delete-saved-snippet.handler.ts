import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { ownUserId } from '../shared/own-user-id';
import { DeleteSavedSnippetCommand } from './delete-saved-snippet.command';
import { savedSnippets } from './saved-snippets.decider-handler';

@CommandHandler(DeleteSavedSnippetCommand)
export class DeleteSavedSnippetHandler implements ICommandHandler<DeleteSavedSnippetCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, savedSnippetId }: DeleteSavedSnippetCommand): Promise<void> {
    const userId = ownUserId(actor);
    await savedSnippets(this.commands, actor, ({ now }) => ({ type: 'DeleteSavedSnippet', data: { userId, now, savedSnippetId } }));
  }
}
