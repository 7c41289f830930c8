import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  type SettingProperty,
  type SettingValue,
  type UserSettingsEvent,
  userSettingsDecider,
  userSettingsStream,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { DeciderRunner, type RunResult } from '../shared/decider-runner';
import { SettingsSideEffects } from './settings-side-effects';
import { UserSettingsQueries } from './user-settings.queries';

export type SettingsWriteOptions = { editedBySelf: boolean; skipIfAlreadyEdited?: boolean };

/** do_change_user_setting for one user: one append of every change to `user_settings-<userId>`. */
@Injectable()
export class SettingsWriter {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly queries: UserSettingsQueries,
    private readonly sideEffects: SettingsSideEffects,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async change(
    actor: Actor,
    userId: number,
    changes: { property: SettingProperty; value: SettingValue }[],
    options: SettingsWriteOptions,
  ): Promise<RunResult<UserSettingsEvent>> {
    if (changes.length === 0) return { newEvents: [], position: undefined };
    const baseline = await this.queries.settingsOf(userId);
    const result = await this.runner.run(userSettingsDecider, userSettingsStream(userId), {
      type: 'ChangeUserSettings',
      data: {
        realmId: actor.realmId, userId, actorId: actor.userId, now: this.clock.now().toISOString(),
        editedBySelf: options.editedBySelf, skipIfAlreadyEdited: options.skipIfAlreadyEdited, changes, baseline,
      },
    });
    await this.sideEffects.afterChange(actor, userId, result.newEvents);
    return result;
  }
}
