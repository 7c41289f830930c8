import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { savedSnippetsDecider, savedSnippetsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ownUserId } from '../shared/own-user-id';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeleteSavedSnippetCommand } from './delete-saved-snippet.command';

@CommandHandler(DeleteSavedSnippetCommand)
export class DeleteSavedSnippetHandler implements ICommandHandler<DeleteSavedSnippetCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, savedSnippetId }: DeleteSavedSnippetCommand): Promise<void> {
    const userId = ownUserId(actor);
    const { position } = await this.runner.run(savedSnippetsDecider, savedSnippetsStream(userId), {
      type: 'DeleteSavedSnippet',
      data: { userId, now: this.clock.now().toISOString(), savedSnippetId },
    });
    await this.projections.waitFor(position);
  }
}
