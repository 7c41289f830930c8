import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { savedSnippetsDecider, savedSnippetsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ownUserId } from '../shared/own-user-id';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { EditSavedSnippetCommand } from './edit-saved-snippet.command';

@CommandHandler(EditSavedSnippetCommand)
export class EditSavedSnippetHandler implements ICommandHandler<EditSavedSnippetCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, savedSnippetId, changes }: EditSavedSnippetCommand): Promise<void> {
    const userId = ownUserId(actor);
    const { position } = await this.runner.run(savedSnippetsDecider, savedSnippetsStream(userId), {
      type: 'EditSavedSnippet',
      data: { userId, now: this.clock.now().toISOString(), savedSnippetId, title: changes.title, content: changes.content },
    });
    await this.projections.waitFor(position);
  }
}
