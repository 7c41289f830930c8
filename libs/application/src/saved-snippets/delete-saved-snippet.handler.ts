import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { ownUserId } from '../shared/own-user-id';
import { DeleteSavedSnippetCommand } from './delete-saved-snippet.command';
import { savedSnippetsHandler } from './saved-snippets.decider-handler';

@CommandHandler(DeleteSavedSnippetCommand)
export class DeleteSavedSnippetHandler implements ICommandHandler<DeleteSavedSnippetCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context: { actor }, savedSnippetId }: DeleteSavedSnippetCommand): Promise<void> {
    const userId = ownUserId(actor);
    await savedSnippetsHandler(this.commands, actor, ({ now }) => ({ type: 'DeleteSavedSnippet', data: { userId, now, savedSnippetId } }));
  }
}
