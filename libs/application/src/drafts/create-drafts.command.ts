import { Command } from '@nestjs/cqrs';
import type { DraftInput } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/** `POST /drafts` (create_drafts): returns the new ids, in request order. */
export class CreateDraftsCommand extends Command<{ ids: number[] }> {
  constructor(
    readonly context: CommandContext,
    readonly drafts: DraftInput[],
  ) {
    super();
  }
}
