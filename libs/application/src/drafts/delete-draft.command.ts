import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `DELETE /drafts/{draft_id}` (delete_draft). */
export class DeleteDraftCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly draftId: number,
  ) {
    super();
  }
}

/**
 * Every draft of a user, whatever the drafts setting: what turning `enable_drafts_synchronization`
 * off does in Zulip (do_change_user_setting deletes the user's drafts). For the settings area.
 */
export class DeleteAllDraftsCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
  ) {
    super();
  }
}
