import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { checkSavedSnippetField, savedSnippetsDecider, savedSnippetsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ownUserId } from '../shared/own-user-id';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { CreateSavedSnippetCommand } from './create-saved-snippet.command';

@CommandHandler(CreateSavedSnippetCommand)
export class CreateSavedSnippetHandler implements ICommandHandler<CreateSavedSnippetCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context: { actor }, title, content }: CreateSavedSnippetCommand): Promise<{ savedSnippetId: number }> {
    const userId = ownUserId(actor);
    // The decider checks these too; checking first keeps a refused request from using up an id.
    checkSavedSnippetField('title', title);
    checkSavedSnippetField('content', content);
    const savedSnippetId = await this.ids.next('saved_snippet');
    const { position } = await this.runner.run(savedSnippetsDecider, savedSnippetsStream(userId), {
      type: 'CreateSavedSnippet',
      data: { userId, now: this.clock.now().toISOString(), savedSnippetId, title, content },
    });
    await this.projections.waitFor(position);
    return { savedSnippetId };
  }
}
