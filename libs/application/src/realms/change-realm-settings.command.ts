import { Command } from '@nestjs/cqrs';
import type { RealmProperty } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

export type ChangeRealmSettingsResult = {
  /** The settings whose value changed, with the new value (Zulip's PATCH /realm answers `{name: "updated"}` for strings). */
  changed: { property: RealmProperty; value: string }[];
};

/** Zulip's `PATCH /realm` (update_realm) for the organization's name and description. */
export class ChangeRealmSettingsCommand extends Command<ChangeRealmSettingsResult> {
  constructor(
    readonly context: CommandContext,
    readonly settings: { name?: string; description?: string },
  ) {
    super();
  }
}
