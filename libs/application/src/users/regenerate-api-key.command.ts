import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/**
 * Zulip's do_regenerate_api_key: `POST /users/me/api_key/regenerate` (the acting user, the default)
 * and `POST /bots/{bot_id}/api_key/regenerate` (bot owners and administrators). The old key stops
 * working at once.
 */
export class RegenerateApiKeyCommand extends Command<{ apiKey: string }> {
  constructor(
    readonly context: CommandContext,
    readonly userId?: number,
  ) {
    super();
  }
}
