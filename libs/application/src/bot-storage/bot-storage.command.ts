import { Command } from '@nestjs/cqrs';
import type { BotStorageEntry } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/** `PUT /bot_storage` (update_storage): add or replace entries of the calling bot. */
export class PutBotStorageCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly entries: BotStorageEntry[],
  ) {
    super();
  }
}

/** `DELETE /bot_storage` (remove_storage): the named keys, or everything. */
export class RemoveBotStorageCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly keys: string[] | undefined,
  ) {
    super();
  }
}
