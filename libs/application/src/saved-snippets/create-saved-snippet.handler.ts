import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { checkSavedSnippetField } from '@app/domain';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { ID_ALLOCATOR } from '../ports/tokens';
import { DeciderCommands } from '../shared/decider-command-handler';
import { ownUserId } from '../shared/own-user-id';
import { CreateSavedSnippetCommand } from './create-saved-snippet.command';
import { savedSnippetsHandler } from './saved-snippets.decider-handler';

@CommandHandler(CreateSavedSnippetCommand)
export class CreateSavedSnippetHandler implements ICommandHandler<CreateSavedSnippetCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context: { actor }, title, content }: CreateSavedSnippetCommand): Promise<{ savedSnippetId: number }> {
    const userId = ownUserId(actor);
    // The decider checks these too; checking first keeps a refused request from using up an id.
    checkSavedSnippetField('title', title);
    checkSavedSnippetField('content', content);
    const savedSnippetId = await this.ids.next('saved_snippet');
    await savedSnippetsHandler(this.commands, actor, ({ now }) => ({ type: 'CreateSavedSnippet', data: { userId, now, savedSnippetId, title, content } }));
    return { savedSnippetId };
  }
}
