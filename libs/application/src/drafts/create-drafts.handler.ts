import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DraftsSynchronizationDisabledError, validateDraft } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { DeciderCommands } from '../shared/decider-command-handler';
import { CreateDraftsCommand } from './create-drafts.command';
import { DraftFactsLoader } from './draft.facts-loader';
import { draftsHandler } from './drafts.decider-handler';
import { DraftsSynchronization } from './drafts-synchronization';
import { ownUserId } from '../shared/own-user-id';

@CommandHandler(CreateDraftsCommand)
export class CreateDraftsHandler implements ICommandHandler<CreateDraftsCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly facts: DraftFactsLoader,
    private readonly synchronization: DraftsSynchronization,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context: { actor }, drafts }: CreateDraftsCommand): Promise<{ ids: number[] }> {
    const userId = ownUserId(actor);
    const now = this.clock.now();
    // The decider decides; checking first here only keeps a refused request from using up ids.
    const syncEnabled = await this.synchronization.isEnabled(actor);
    if (!syncEnabled) throw new DraftsSynchronizationDisabledError();
    const facts = await this.facts.load(actor, drafts);
    for (const draft of drafts) validateDraft(draft, { userId, nowSeconds: now.getTime() / 1000, facts });
    if (drafts.length === 0) return { ids: [] };
    const first = await this.ids.nextBlock('draft', drafts.length);
    const draftIds = drafts.map((_, i) => first + i);
    // The drafts were validated at `now`: the command carries that time.
    await draftsHandler(this.commands, actor, () => ({ type: 'CreateDrafts', data: { userId, now: now.toISOString(), syncEnabled, drafts, draftIds, facts } }));
    return { ids: draftIds };
  }
}
