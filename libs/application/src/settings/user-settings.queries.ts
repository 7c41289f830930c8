import { Inject, Injectable } from '@nestjs/common';
import { defaultUserSettings, type UserSettingValues } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { EMAIL_CHANGES, USER_SETTINGS_COLLECTION, type EmailChangeDocument, type UserSettingsDocument } from './user-settings.documents';

/**
 * Reads of the personal settings read model. Other areas read a user's settings here
 * (drafts: `enable_drafts_synchronization`; typing: `receives_typing_notifications`; …).
 */
@Injectable()
export class UserSettingsQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /** Every setting of the user, at Zulip's defaults for an account the read model does not know. */
  async settingsOf(userId: number): Promise<UserSettingValues> {
    const doc = await this.readStore.get<UserSettingsDocument>(USER_SETTINGS_COLLECTION, String(userId));
    if (!doc) return defaultUserSettings();
    const { user_id: _userId, realm_id: _realmId, ...settings } = doc;
    return { ...defaultUserSettings(), ...settings };
  }

  /** The settings documents of several users (missing ones left out). */
  async documentsOf(userIds: number[]): Promise<Map<number, UserSettingsDocument>> {
    const result = new Map<number, UserSettingsDocument>();
    for (let i = 0; i < userIds.length; i += 500) {
      const docs = await this.readStore.getMany<UserSettingsDocument>(USER_SETTINGS_COLLECTION, userIds.slice(i, i + 500).map(String));
      for (const { doc } of docs) result.set(doc.user_id, doc);
    }
    return result;
  }

  /** Users of the organization who turned `presence_enabled` off (Zulip's deprecated `away`). */
  async presenceDisabledUserIds(realmId: number): Promise<Set<number>> {
    const docs = await this.readStore.find<UserSettingsDocument>(USER_SETTINGS_COLLECTION, { where: { realm_id: realmId, presence_enabled: false } });
    return new Set(docs.map((d) => d.user_id));
  }

  /** A pending (or used, or revoked) change of address by its confirmation token. */
  emailChange(token: string): Promise<EmailChangeDocument | null> {
    return this.readStore.get<EmailChangeDocument>(EMAIL_CHANGES, token);
  }
}
