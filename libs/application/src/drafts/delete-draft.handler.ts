import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { draftsDecider, draftsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderCommands } from '../shared/decider-command-handler';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeleteAllDraftsCommand, DeleteDraftCommand } from './delete-draft.command';
import { draftsHandler } from './drafts.decider-handler';
import { DraftsSynchronization } from './drafts-synchronization';
import { ownUserId } from '../shared/own-user-id';

@CommandHandler(DeleteDraftCommand)
export class DeleteDraftHandler implements ICommandHandler<DeleteDraftCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly synchronization: DraftsSynchronization,
  ) {}

  async execute({ context: { actor }, draftId }: DeleteDraftCommand): Promise<void> {
    const userId = ownUserId(actor);
    const syncEnabled = await this.synchronization.isEnabled(actor);
    await draftsHandler(this.commands, actor, ({ now }) => ({ type: 'DeleteDraft', data: { userId, now, syncEnabled, draftId } }));
  }
}

@CommandHandler(DeleteAllDraftsCommand)
export class DeleteAllDraftsHandler implements ICommandHandler<DeleteAllDraftsCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ userId }: DeleteAllDraftsCommand): Promise<void> {
    const { position } = await this.runner.run(draftsDecider, draftsStream(userId), {
      type: 'DeleteAllDrafts',
      data: { userId, now: this.clock.now().toISOString() },
    });
    await this.projections.waitFor(position);
  }
}
