import { Inject, Injectable } from '@nestjs/common';
import { type Actor, dummyEmailUserId, NoSuchUserError, normalizeEmail, ROLE_VALUES, type Role } from '@app/domain';
import type { Filter, ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { CREDENTIALS, USERS, type CredentialDocument, type UserDocument } from './user.documents';
import { CredentialVault } from '../shared/credential-vault';
import { canSeeDeliveryEmail } from './user-format';

export type ListUsersOptions = {
  /** Default true: deactivated accounts are listed too (Zulip's GET /users lists them with is_active false). */
  includeDeactivated?: boolean;
  /** Default true. */
  includeBots?: boolean;
};

/** A human account with the bots it owns (active and deactivated), for administration screens and the CLI. */
export type UserWithBots = { user: UserDocument; bots: UserDocument[] };

const byUserId = [{ field: 'user_id', direction: 'asc' as const }];

/** Reads of the users and credentials read models. */
@Injectable()
export class UserQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly vault: CredentialVault,
  ) {}

  list(realmId: number, options: ListUsersOptions = {}): Promise<UserDocument[]> {
    const where: Filter = { realm_id: realmId };
    if (options.includeDeactivated === false) where.is_active = true;
    if (options.includeBots === false) where.is_bot = false;
    return this.readStore.find<UserDocument>(USERS, { where, orderBy: byUserId });
  }

  async byId(realmId: number, userId: number): Promise<UserDocument | null> {
    const user = await this.readStore.get<UserDocument>(USERS, String(userId));
    return user && user.realm_id === realmId ? user : null;
  }

  /** Zulip's access_user_by_id lookup: "No such user" when the id is not an account of this organization. */
  async mustFindById(realmId: number, userId: number): Promise<UserDocument> {
    const user = await this.byId(realmId, userId);
    if (!user) throw new NoSuchUserError();
    return user;
  }

  /** By (delivery) email address, case-insensitively. */
  async byEmail(realmId: number, email: string): Promise<UserDocument | null> {
    const credential = await this.credentialsByEmail(realmId, email);
    return credential ? this.byId(realmId, credential.user_id) : null;
  }

  /**
   * access_user_by_email for a viewer: by the address the API shows (`email`, a dummy
   * `user<id>@…` included), or by the real address only when the viewer may read it
   * (email_address_visibility); otherwise null, as for an unknown address.
   */
  async byEmailAs(viewer: Actor, email: string): Promise<UserDocument | null> {
    const dummyId = dummyEmailUserId(email);
    if (dummyId !== null) {
      const user = await this.byId(viewer.realmId, dummyId);
      if (user && user.email.toLowerCase() === email.trim().toLowerCase()) return user;
    }
    const user = await this.byEmail(viewer.realmId, email);
    return user && canSeeDeliveryEmail(user, viewer) ? user : null;
  }

  async mustFindByEmail(realmId: number, email: string): Promise<UserDocument> {
    const user = await this.byEmail(realmId, email);
    if (!user) throw new NoSuchUserError();
    return user;
  }

  /** Zulip's GET /bots: the active bots a user owns, oldest first (ids increase with date_joined). */
  activeBotsOwnedBy(realmId: number, ownerId: number): Promise<UserDocument[]> {
    return this.botsOwnedBy(realmId, ownerId, { includeDeactivated: false });
  }

  botsOwnedBy(realmId: number, ownerId: number, options: { includeDeactivated?: boolean } = {}): Promise<UserDocument[]> {
    const where: Filter = { realm_id: realmId, bot_owner_id: ownerId, is_bot: true };
    if (options.includeDeactivated === false) where.is_active = true;
    return this.readStore.find<UserDocument>(USERS, { where, orderBy: byUserId });
  }

  /** Every bot of the organization. */
  listBots(realmId: number, options: { includeDeactivated?: boolean } = {}): Promise<UserDocument[]> {
    const where: Filter = { realm_id: realmId, is_bot: true };
    if (options.includeDeactivated === false) where.is_active = true;
    return this.readStore.find<UserDocument>(USERS, { where, orderBy: byUserId });
  }

  /** Human accounts, each with the bots it owns. */
  async listWithBots(realmId: number, options: { includeDeactivated?: boolean } = {}): Promise<UserWithBots[]> {
    const [humans, bots] = await Promise.all([
      this.list(realmId, { includeBots: false, includeDeactivated: options.includeDeactivated }),
      this.listBots(realmId, { includeDeactivated: options.includeDeactivated }),
    ]);
    const botsByOwner = new Map<number, UserDocument[]>();
    for (const bot of bots) {
      if (bot.bot_owner_id === null) continue;
      botsByOwner.set(bot.bot_owner_id, [...(botsByOwner.get(bot.bot_owner_id) ?? []), bot]);
    }
    return humans.map((user) => ({ user, bots: botsByOwner.get(user.user_id) ?? [] }));
  }

  /** Active accounts with a role, e.g. the organization's owners (Realm.get_human_owner_users with humansOnly). */
  listActiveByRole(realmId: number, role: Role, options: { humansOnly?: boolean } = {}): Promise<UserDocument[]> {
    const where: Filter = { realm_id: realmId, role: ROLE_VALUES[role], is_active: true };
    if (options.humansOnly) where.is_bot = false;
    return this.readStore.find<UserDocument>(USERS, { where, orderBy: byUserId });
  }

  /**
   * The full names of the organization's active humans: the fact the rules about bot names take
   * them from (usersDecider's `activeHumanNames`), since humans rename themselves on their own streams.
   */
  async activeHumanNames(realmId: number): Promise<string[]> {
    const humans = await this.readStore.find<UserDocument>(USERS, { where: { realm_id: realmId, is_bot: false, is_active: true } });
    return humans.map((u) => u.full_name);
  }

  /** The ids of the organization's active users (bots too): who hears about realm-wide changes. */
  async activeIds(realmId: number): Promise<number[]> {
    return (await this.readStore.find<UserDocument>(USERS, { where: { realm_id: realmId, is_active: true } })).map((u) => u.user_id);
  }

  countActive(realmId: number, options: { humansOnly?: boolean } = {}): Promise<number> {
    const where: Filter = { realm_id: realmId, is_active: true };
    if (options.humansOnly) where.is_bot = false;
    return this.readStore.count(USERS, where);
  }

  async credentialsByEmail(realmId: number, email: string): Promise<CredentialDocument | null> {
    const [credential] = await this.readStore.find<CredentialDocument>(CREDENTIALS, {
      where: { realm_id: realmId, email_lower: normalizeEmail(email) },
      limit: 1,
    });
    return credential ?? null;
  }

  /** Whether any other organization has an account with this email (Zulip then answers "Invalid subdomain"). */
  async emailExistsInOtherRealm(realmId: number, email: string): Promise<boolean> {
    const matches = await this.readStore.find<CredentialDocument>(CREDENTIALS, {
      where: { email_lower: normalizeEmail(email), realm_id: { $ne: realmId } },
      limit: 1,
    });
    return matches.length > 0;
  }

  credentialsById(userId: number): Promise<CredentialDocument | null> {
    return this.readStore.get<CredentialDocument>(CREDENTIALS, String(userId));
  }

  /**
   * An account's current API key, from the credential store: for its user (the CLI's api-key) and
   * a bot's for its owner and the administrators (`realm_bots`, `GET /bots`); '' when it has none.
   */
  async apiKeyById(userId: number): Promise<string> {
    const credential = await this.credentialsById(userId);
    return (credential && (await this.vault.apiKey(credential.api_key_id))) ?? '';
  }
}
