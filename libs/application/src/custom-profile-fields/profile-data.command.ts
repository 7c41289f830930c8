import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** One item of `data`: a field and its new value (text, or user ids for a Users field). */
export type ProfileDataItem = { id: number; value: unknown };

/**
 * `PATCH /users/me/profile_data` (update_user_custom_profile_data), or an administrator setting
 * another user's values (the `profile_data` of `PATCH /users/{user_id}`).
 */
export class UpdateProfileDataCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
    readonly data: ProfileDataItem[],
  ) {
    super();
  }
}

/** `DELETE /users/me/profile_data` (remove_user_custom_profile_data): the fields whose values go. */
export class RemoveProfileDataCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly userId: number,
    readonly fieldIds: number[],
  ) {
    super();
  }
}
