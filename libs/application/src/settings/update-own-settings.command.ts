import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';
import type { SettingsChanges } from './settings-changes';

/**
 * `PATCH /settings` for the caller (zerver/views/user_settings.py json_change_settings without
 * `target_users`): settings, `full_name`, a new password (with the current one), and a change of
 * address that waits for confirmation. Everything is checked before anything changes.
 */
export class UpdateOwnSettingsCommand extends Command<Record<string, never>> {
  constructor(
    readonly context: CommandContext,
    readonly changes: SettingsChanges,
  ) {
    super();
  }
}
