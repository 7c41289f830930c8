import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /submessage` (process_submessage). */
export class AddSubmessageCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly request: { messageId: number; msgType: string; content: string },
  ) {
    super();
  }
}
