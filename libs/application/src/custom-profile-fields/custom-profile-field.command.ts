import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

export type ProfileFieldFlags = {
  displayInProfileSummary?: boolean;
  required?: boolean;
  editableByUser?: boolean;
  useForUserMatching?: boolean;
};

export type NewProfileField = ProfileFieldFlags & {
  fieldType: number;
  name: string;
  hint: string;
  /** Absent: not given ({} for the checks, as Zulip defaults it). */
  fieldData?: Record<string, unknown>;
};

/** `POST /realm/profile_fields` (create_realm_custom_profile_field). */
export class CreateProfileFieldCommand extends Command<{ fieldId: number }> {
  constructor(
    readonly context: CommandContext,
    readonly field: NewProfileField,
  ) {
    super();
  }
}

export type ProfileFieldChanges = ProfileFieldFlags & { name?: string; hint?: string; fieldData?: Record<string, unknown> };

/** `PATCH /realm/profile_fields/{field_id}` (update_realm_custom_profile_field). */
export class UpdateProfileFieldCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly fieldId: number,
    readonly changes: ProfileFieldChanges,
  ) {
    super();
  }
}

/** `DELETE /realm/profile_fields/{field_id}` (delete_realm_custom_profile_field). */
export class DeleteProfileFieldCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly fieldId: number,
  ) {
    super();
  }
}

/** `PATCH /realm/profile_fields` (reorder_realm_custom_profile_fields). */
export class ReorderProfileFieldsCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly order: number[],
  ) {
    super();
  }
}
