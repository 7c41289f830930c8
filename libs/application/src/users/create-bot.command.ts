import { Command } from '@nestjs/cqrs';
import type { BotType } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

export type CreateBotResult = { userId: number; apiKey: string; email: string };

/**
 * Zulip's `POST /bots` (add_bot_backend): a generic or incoming-webhook bot whose address is
 * `<shortName>-bot@<organization host>`. The owner is the acting user unless the operator names one.
 */
export class CreateBotCommand extends Command<CreateBotResult> {
  constructor(
    readonly context: CommandContext,
    /** `system`: a system bot owned by nobody (Notification Bot); the operator only. */
    readonly bot: { fullName: string; shortName: string; botType?: BotType; ownerId?: number; system?: boolean },
  ) {
    super();
  }
}
