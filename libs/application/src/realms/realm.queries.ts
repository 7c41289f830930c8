import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  canSetTopicsPolicy,
  DEFAULT_REALM_MESSAGING_SETTINGS,
  defaultRealmGroupSettings,
  isSystemGroupMember,
  NotFoundError,
  type RealmGroupSettings,
  type RealmMessagingSettings,
} from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { CachedDocuments } from '../shared/cached-documents';
import { REALMS, type RealmDocument } from './realm.documents';

/** The organization a command names does not exist. */
export class NoSuchRealmError extends NotFoundError {
  constructor() {
    super('Invalid organization');
  }
}

/** An organization's messaging settings, Zulip's defaults filled in. */
export const realmMessagingSettingsOf = (realm: RealmDocument): RealmMessagingSettings => ({
  ...DEFAULT_REALM_MESSAGING_SETTINGS,
  ...realm.messaging_settings,
});

/** An organization's group settings (by system group name), Zulip's defaults filled in. */
export const realmGroupSettingsOf = (realm: RealmDocument): RealmGroupSettings => ({ ...defaultRealmGroupSettings(), ...realm.group_settings });

/** Reads of the organizations read model. */
@Injectable()
export class RealmQueries {
  private readonly cache: CachedDocuments<RealmDocument>;

  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {
    this.cache = new CachedDocuments<RealmDocument>(readStore, REALMS, 100);
  }

  byId(realmId: number): Promise<RealmDocument | null> {
    return this.readStore.get<RealmDocument>(REALMS, String(realmId));
  }

  /**
   * As byId, from the in-memory cache while the organizations did not change: for the reads every
   * request makes (authentication, the realm context). The document is frozen and shared.
   */
  cachedById(realmId: number): Promise<Readonly<RealmDocument> | null> {
    return this.cache.get(String(realmId), () => this.byId(realmId));
  }

  /** user_profile.can_set_topics_policy(): an administrator, or in the organization's can_set_topics_policy_group. */
  async maySetTopicsPolicy(actor: Pick<Actor, 'realmId' | 'role'>): Promise<boolean> {
    const realm = await this.cachedById(actor.realmId);
    return canSetTopicsPolicy(actor.role, (realm ? realmGroupSettingsOf(realm) : defaultRealmGroupSettings()).can_set_topics_policy_group);
  }

  /**
   * Whether the actor is in one of the organization's permission groups (system groups only here):
   * can_invite_users_group (UserProfile.can_invite_users_by_email), create_multiuse_invite_group.
   */
  async inGroupSetting(actor: Pick<Actor, 'realmId' | 'role'>, setting: 'can_invite_users_group' | 'create_multiuse_invite_group'): Promise<boolean> {
    if (actor.role === 'operator') return true;
    const realm = await this.cachedById(actor.realmId);
    return isSystemGroupMember((realm ? realmGroupSettingsOf(realm) : defaultRealmGroupSettings())[setting], actor.role);
  }

  async mustFindById(realmId: number): Promise<RealmDocument> {
    const realm = await this.byId(realmId);
    if (!realm) throw new NoSuchRealmError();
    return realm;
  }

  async byStringId(stringId: string): Promise<RealmDocument | null> {
    const [realm] = await this.readStore.find<RealmDocument>(REALMS, { where: { string_id: stringId }, limit: 1 });
    return realm ?? null;
  }

  async mustFindByStringId(stringId: string): Promise<RealmDocument> {
    const realm = await this.byStringId(stringId);
    if (!realm) throw new NotFoundError(`No organization '${stringId}'`);
    return realm;
  }

  /** Every organization, by id (sorted here: document ids are strings, and organizations are few). */
  async list(): Promise<RealmDocument[]> {
    return (await this.readStore.find<RealmDocument>(REALMS)).sort((a, b) => a.id - b.id);
  }

  /** Organizations that are not deactivated. */
  async listActive(): Promise<RealmDocument[]> {
    return (await this.list()).filter((realm) => !realm.deactivated);
  }
}
