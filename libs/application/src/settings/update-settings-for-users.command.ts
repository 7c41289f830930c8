import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';
import type { SettingsChanges, TargetUsers } from './settings-changes';

/**
 * `PATCH /settings` with `target_users` (feature level 444): administrators change settings of
 * other users, never their account fields or security-sensitive settings.
 */
export class UpdateSettingsForUsersCommand extends Command<Record<string, never>> {
  constructor(
    readonly context: CommandContext,
    readonly targets: TargetUsers,
    readonly changes: SettingsChanges,
  ) {
    super();
  }
}
