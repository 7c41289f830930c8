import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Actor, UserSettingsEvent } from '@app/domain';
import { SettingsSideEffects } from '../settings/settings-side-effects';
import { DeleteAllDraftsCommand } from './delete-draft.command';

/** Whether the events turn draft synchronization off. */
export const turnsDraftSyncOff = (events: UserSettingsEvent[]): boolean =>
  events.some((e) => e.type === 'UserSettingChanged' && e.data.property === 'enable_drafts_synchronization' && e.data.newValue === false);

/**
 * Turning `enable_drafts_synchronization` off deletes the user's drafts on the server
 * (do_change_user_setting: `Draft.objects.filter(user_profile=…).delete()`), through the drafts
 * area's own command on `drafts-<userId>`. The drafts descriptor binds it to the settings area's seam.
 */
@Injectable()
export class DraftsCleanupSideEffects extends SettingsSideEffects {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async afterChange(actor: Actor, userId: number, events: UserSettingsEvent[]): Promise<void> {
    if (turnsDraftSyncOff(events)) await this.commands.execute(new DeleteAllDraftsCommand({ actor }, userId));
  }
}
