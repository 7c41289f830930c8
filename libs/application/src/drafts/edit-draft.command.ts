import { Command } from '@nestjs/cqrs';
import type { DraftInput } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/** `PATCH /drafts/{draft_id}` (edit_draft): the draft is replaced as a whole. */
export class EditDraftCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly draftId: number,
    readonly draft: DraftInput,
  ) {
    super();
  }
}
