import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/domain';
import { UserSettingsQueries } from '../settings/user-settings.queries';

/**
 * Whether a user's `enable_drafts_synchronization` setting is on. The setting belongs to the
 * personal settings area (`user_settings-<userId>`, read model `user_settings`); every draft
 * endpoint asks first (Zulip's draft_endpoint).
 */
@Injectable()
export class DraftsSynchronization {
  constructor(private readonly settings: UserSettingsQueries) {}

  async isEnabled(actor: Actor): Promise<boolean> {
    if (actor.userId === null) return false;
    return (await this.settings.settingsOf(actor.userId)).enable_drafts_synchronization === true;
  }
}
