import { Inject, Injectable } from '@nestjs/common';
import { defaultUserSettings, type UserSettingValues } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { CachedDocuments } from '../shared/cached-documents';
import { USERS, type UserDocument } from '../users/user.documents';
import { EMAIL_CHANGES, USER_SETTINGS_COLLECTION, type EmailChangeDocument, type UserSettingsDocument } from './user-settings.documents';

/**
 * Reads of the personal settings read model. Other areas read a user's settings here
 * (drafts: `enable_drafts_synchronization`; typing: `receives_typing_notifications`; …).
 */
@Injectable()
export class UserSettingsQueries {
  /**
   * Whole settings of many users, kept while the read model does not change (a send's
   * missed-message check asks for every recipient's; a copy of ~100 values each was most of its
   * cost): with the users' time zones, and without.
   */
  private readonly manyWithTimezone: CachedDocuments<UserSettingValues>;
  private readonly manyWithoutTimezone: CachedDocuments<UserSettingValues>;

  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {
    this.manyWithTimezone = new CachedDocuments(readStore, [USER_SETTINGS_COLLECTION, USERS], MANY_CACHED);
    this.manyWithoutTimezone = new CachedDocuments(readStore, USER_SETTINGS_COLLECTION, MANY_CACHED);
  }

  /**
   * Every setting of the user: Zulip's defaults, the time zone of the user's account (the users
   * read model's), and what the user changed (the settings document, which holds only that).
   * An account the read models do not know gets the defaults.
   */
  async settingsOf(userId: number): Promise<UserSettingValues> {
    const [doc, user] = await Promise.all([
      this.readStore.get<UserSettingsDocument>(USER_SETTINGS_COLLECTION, String(userId)),
      this.readStore.get<UserDocument>(USERS, String(userId)),
    ]);
    return withDefaults(doc, user?.timezone);
  }

  /**
   * Every setting of several users (as settingsOf), by user id. `timezone: false` leaves the time
   * zone empty and skips reading the users' account documents (the only place it comes from).
   */
  async settingsOfMany(userIds: number[], options: { timezone: boolean } = { timezone: true }): Promise<Map<number, UserSettingValues>> {
    const cache = options.timezone ? this.manyWithTimezone : this.manyWithoutTimezone;
    const values = await cache.getMany(
      userIds.map(String),
      async (ids) => {
        const docs = new Map<number, UserSettingsDocument>();
        const timezones = new Map<number, string>();
        for (let i = 0; i < ids.length; i += 500) {
          const chunk = ids.slice(i, i + 500);
          for (const { doc } of await this.readStore.getMany<UserSettingsDocument>(USER_SETTINGS_COLLECTION, chunk)) docs.set(doc.user_id, doc);
          if (options.timezone) for (const { doc } of await this.readStore.getMany<UserDocument>(USERS, chunk)) timezones.set(doc.user_id, doc.timezone);
        }
        return new Map(ids.map((id) => [id, withDefaults(docs.get(Number(id)) ?? null, timezones.get(Number(id)))]));
      },
    );
    // Every id has its values (an unknown account gets the defaults); shared and frozen when cached.
    return new Map(userIds.map((id) => [id, values.get(String(id))!]));
  }

  /** Users of the organization who turned `presence_enabled` off (Zulip's deprecated `away`). */
  async presenceDisabledUserIds(realmId: number): Promise<Set<number>> {
    const docs = await this.readStore.find<UserSettingsDocument>(USER_SETTINGS_COLLECTION, { where: { realm_id: realmId, presence_enabled: false } });
    return new Set(docs.map((d) => d.user_id));
  }

  /** A pending (or used, or revoked) change of address by the digest of its key (confirmationKeyDigest). */
  emailChange(keyDigest: string): Promise<EmailChangeDocument | null> {
    return this.readStore.get<EmailChangeDocument>(EMAIL_CHANGES, keyDigest);
  }
}

/** Users whose whole settings settingsOfMany keeps (about 3 kB each). */
const MANY_CACHED = 5_000;

function withDefaults(doc: UserSettingsDocument | null, timezone: string | undefined): UserSettingValues {
  const defaults = defaultUserSettings(timezone ?? '');
  if (!doc) return defaults;
  // A document written before the read model kept only changes may still hold a time zone.
  const { user_id: _userId, realm_id: _realmId, timezone: _timezone, ...changed } = doc as UserSettingsDocument & { timezone?: string };
  return { ...defaults, ...changed };
}
