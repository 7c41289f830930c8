import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /realm/filters` (create_linkifier). */
export class AddLinkifierCommand extends Command<{ id: number }> {
  constructor(
    readonly context: CommandContext,
    readonly pattern: string,
    readonly urlTemplate: string,
  ) {
    super();
  }
}

/** `PATCH /realm/filters/{filter_id}` (update_linkifier). */
export class UpdateLinkifierCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly linkifierId: number,
    readonly pattern: string,
    readonly urlTemplate: string,
  ) {
    super();
  }
}

/** `DELETE /realm/filters/{filter_id}` (delete_linkifier). */
export class RemoveLinkifierCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly linkifierId: number,
  ) {
    super();
  }
}

/** `PATCH /realm/linkifiers` (reorder_linkifiers). */
export class ReorderLinkifiersCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly orderedIds: number[],
  ) {
    super();
  }
}
