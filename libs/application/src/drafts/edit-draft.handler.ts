import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeciderCommands } from '../shared/decider-command-handler';
import { DraftFactsLoader } from './draft.facts-loader';
import { draftsHandler } from './drafts.decider-handler';
import { DraftsSynchronization } from './drafts-synchronization';
import { EditDraftCommand } from './edit-draft.command';
import { ownUserId } from '../shared/own-user-id';

@CommandHandler(EditDraftCommand)
export class EditDraftHandler implements ICommandHandler<EditDraftCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly facts: DraftFactsLoader,
    private readonly synchronization: DraftsSynchronization,
  ) {}

  async execute({ context: { actor }, draftId, draft }: EditDraftCommand): Promise<void> {
    const userId = ownUserId(actor);
    const [syncEnabled, facts] = await Promise.all([this.synchronization.isEnabled(actor), this.facts.load(actor, [draft])]);
    await draftsHandler(this.commands, actor, ({ now }) => ({ type: 'EditDraft', data: { userId, now, syncEnabled, draftId, draft, facts } }));
  }
}
