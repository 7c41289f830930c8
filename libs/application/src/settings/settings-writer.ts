import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import {
  type Actor,
  botEmailDomain,
  type SettingProperty,
  type SettingValue,
  type UserSettingsEvent,
  userSettingsDecider,
  userSettingsStream,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { APP_CONFIG, CLOCK } from '../ports/tokens';
import { RealmQueries } from '../realms/realm.queries';
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
    private readonly realms: RealmQueries,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async change(
    actor: Actor,
    userId: number,
    changes: { property: SettingProperty; value: SettingValue }[],
    options: SettingsWriteOptions,
  ): Promise<RunResult<UserSettingsEvent>> {
    if (changes.length === 0) return { newEvents: [], position: undefined };
    const baseline = await this.queries.settingsOf(userId);
    const dummyEmail = changes.some((c) => c.property === 'email_address_visibility') ? await this.dummyEmail(actor.realmId, userId) : undefined;
    const result = await this.runner.run(userSettingsDecider, userSettingsStream(userId), {
      type: 'ChangeUserSettings',
      data: {
        realmId: actor.realmId, userId, actorId: actor.userId, now: this.clock.now().toISOString(),
        editedBySelf: options.editedBySelf, skipIfAlreadyEdited: options.skipIfAlreadyEdited, changes, baseline,
        ...(dummyEmail !== undefined ? { dummyEmail } : {}),
      },
    });
    await this.sideEffects.afterChange(actor, userId, result.newEvents);
    return result;
  }

  /** get_display_email_address's dummy: `user<id>@` the organization's fake email domain (that of bot addresses). */
  private async dummyEmail(realmId: number, userId: number): Promise<string> {
    const realm = await this.realms.mustFindById(realmId);
    return `user${userId}@${botEmailDomain(realm.string_id, this.config.externalUrl)}`;
  }
}
