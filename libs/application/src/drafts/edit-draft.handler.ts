import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { draftsDecider, draftsStream } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DraftFactsLoader } from './draft.facts-loader';
import { DraftsSynchronization } from './drafts-synchronization';
import { EditDraftCommand } from './edit-draft.command';
import { ownUserId } from '../shared/own-user-id';

@CommandHandler(EditDraftCommand)
export class EditDraftHandler implements ICommandHandler<EditDraftCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly facts: DraftFactsLoader,
    private readonly synchronization: DraftsSynchronization,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, draftId, draft }: EditDraftCommand): Promise<void> {
    const userId = ownUserId(actor);
    const [syncEnabled, facts] = await Promise.all([this.synchronization.isEnabled(actor), this.facts.load(actor, [draft])]);
    const { position } = await this.runner.run(draftsDecider, draftsStream(userId), {
      type: 'EditDraft',
      data: { userId, now: this.clock.now().toISOString(), syncEnabled, draftId, draft, facts },
    });
    await this.projections.waitFor(position);
  }
}
