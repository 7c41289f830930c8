import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { UserSettingsQueries } from './user-settings.queries';

/** `user_settings`: the user's personal settings. */
@Injectable()
export class SettingsRegisterSections implements AreaRegisterSections {
  constructor(private readonly settings: UserSettingsQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'user_settings', read: async (actor) => ({ user_settings: await this.settings.settingsOf(actor.userId!) }) }];
  }
}
