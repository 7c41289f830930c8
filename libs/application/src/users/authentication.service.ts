import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { type Actor, BOT_TYPE_VALUES, DomainError, isValidEmailAddress, normalizeEmail } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { APP_CONFIG, READ_STORE } from '../ports/tokens';
import { RealmQueries } from '../realms/realm.queries';
import { REALMS, type RealmDocument } from '../realms/realm.documents';
import { CachedDocuments } from '../shared/cached-documents';
import {
  AuthenticationFailedError,
  checkDevAuthAvailable,
  InvalidApiKeyError,
  InvalidApiKeyFormatError,
  InvalidLoginEmailError,
  InvalidSubdomainError,
  RealmDeactivatedError,
  UnauthorizedError,
  UserDeactivatedError,
  WebhookBotApiNotAvailableError,
} from './authentication.errors';
import { apiKeysMatch, hashPassword, hasApiKeyFormat, verifyPassword } from './passwords';
import { apiKeyDigest, CredentialVault, digestsMatch } from '../shared/credential-vault';
import { CREDENTIALS, type CredentialDocument, USERS, type UserDocument } from './user.documents';
import { actorFromUser } from './user-format';
import { UserQueries } from './user.queries';

export type AuthenticatedUser = { user: UserDocument; actor: Actor };
/** What fetch_api_key and dev_fetch_api_key answer with: the key, `email` (delivery email) and `user_id`. */
export type FetchedApiKey = AuthenticatedUser & { apiKey: string };

/**
 * What authenticating an API key reads: the email's credentials document, the digest of its
 * current key from the credential store, then the organization and the account.
 */
type Account = { credential: CredentialDocument | null; digest: string | null; realm: RealmDocument | null; user: UserDocument | null };

const accountKey = (realmId: number, email: string) => `${realmId}:${normalizeEmail(email)}`;

/** The API key without surrounding whitespace ("Remove whitespace to protect users from trivial errors."), if well-formed. */
function wellFormedApiKey(apiKey: string): string {
  const key = apiKey.trim();
  if (!hasApiKeyFormat(key)) throw new InvalidApiKeyFormatError();
  return key;
}

/** HTTP Basic authentication's failures (authenticated_rest_api_view): every domain refusal becomes a 401 with its message. */
function asHttpBasicFailure(error: unknown): never {
  if (error instanceof DomainError) throw new UnauthorizedError(error.message);
  throw error;
}

/** Compared against when the email is unknown, so that unknown and known emails take the same time. */
const DUMMY_DIGEST = apiKeyDigest('x'.repeat(32));

/**
 * Who is calling, the way Zulip decides it (zerver/decorator.py validate_api_key and
 * access_user_by_api_key, zerver/views/auth.py api_fetch_api_key, zproject/backends.py
 * EmailAuthBackend, zerver/views/development/dev_login.py api_dev_fetch_api_key).
 * Emails compare case-insensitively; API keys in constant time.
 */
@Injectable()
export class AuthenticationService {
  private dummyPasswordHash: Promise<string> | undefined;
  /**
   * Every request authenticates: the three documents it reads and the key's digest, kept in
   * memory while none of the documents' collections changed (one change check for the three; see
   * CachedDocuments), by realm and email. A new key is stored before the event naming it, and
   * that event changes the credentials document, so a cached digest never outlives its key.
   */
  private readonly accounts: CachedDocuments<Account>;
  /**
   * The key last verified against each cached account entry (only in this process's memory, as
   * the cached documents are; gone with the entry when its documents change).
   */
  private readonly verifiedKeys = new WeakMap<Account, string>();

  constructor(
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) readStore: ReadStorePort,
    private readonly vault: CredentialVault,
  ) {
    this.accounts = new CachedDocuments<Account>(readStore, [CREDENTIALS, REALMS, USERS]);
  }

  /**
   * Zulip's validate_api_key: "Malformed API key" for a key that is not 32 characters of
   * [A-Za-z0-9]; "Invalid API key" for an unknown email or a key of another account (both
   * INVALID_API_KEY, 401); then "This organization has been deactivated" (REALM_DEACTIVATED, 401),
   * "Account is deactivated" (USER_DEACTIVATED, 401), and "This API is not available to incoming
   * webhook bots." (400) unless the endpoint accepts webhook bots.
   */
  async authenticateApiKey(
    realmId: number,
    email: string,
    apiKey: string,
    options: { allowWebhookAccess?: boolean } = {},
  ): Promise<AuthenticatedUser> {
    const key = wellFormedApiKey(apiKey);
    return this.verify((await this.account(realmId, email.trim()))!, key, options);
  }

  /**
   * authenticateHttpBasic answered from memory, without a read or a promise, when the account's
   * documents are cached and their collections unchanged (see CachedDocuments.peek): the same
   * answer and the same errors. Undefined when they are not in memory: then authenticateHttpBasic.
   */
  authenticateHttpBasicFromMemory(
    realmId: number,
    email: string,
    apiKey: string,
    options: { allowWebhookAccess?: boolean } = {},
  ): AuthenticatedUser | undefined {
    try {
      const key = wellFormedApiKey(apiKey);
      const account = this.accounts.peek(accountKey(realmId, email.trim()));
      return account === undefined ? undefined : this.verify(account, key, options);
    } catch (error) {
      return asHttpBasicFailure(error);
    }
  }

  /** validate_api_key's checks of a well-formed key against the account's documents. */
  private verify(account: Account, key: string, options: { allowWebhookAccess?: boolean }): AuthenticatedUser {
    const { credential, digest, realm, user } = account;
    // A key that matched this cached account before is compared as is (constant time, as the
    // digest): a request then costs what it did before the credential store. Anything else is
    // hashed and compared with the stored digest.
    const remembered = this.verifiedKeys.get(account);
    let matches = remembered !== undefined && apiKeysMatch(key, remembered);
    if (!matches) {
      matches = digestsMatch(apiKeyDigest(key), digest ?? DUMMY_DIGEST);
      if (matches && credential && digest) this.verifiedKeys.set(account, key);
    }
    if (!credential || !digest || !matches) throw new InvalidApiKeyError();
    if (!realm || !user) throw new InvalidApiKeyError();
    this.checkActive(realm, user);
    if (user.bot_type === BOT_TYPE_VALUES.incoming_webhook && !options.allowWebhookAccess) {
      throw new WebhookBotApiNotAvailableError();
    }
    return { user, actor: actorFromUser(user) };
  }

  /** The documents authenticateApiKey reads, from memory while their collections did not change (frozen, shared). */
  private account(realmId: number, email: string): Promise<Account | null> {
    return this.accounts.get(accountKey(realmId, email), async () => {
      const credential = await this.users.credentialsByEmail(realmId, email);
      if (!credential) return { credential: null, digest: null, realm: null, user: null };
      const [digest, realm, user] = await Promise.all([
        this.vault.apiKeyDigest(credential.api_key_id),
        this.realms.byId(realmId),
        this.users.byId(realmId, credential.user_id),
      ]);
      return { credential, digest, realm, user };
    });
  }

  /**
   * HTTP Basic authentication of API requests: as authenticateApiKey, but (as Zulip's
   * authenticated_rest_api_view does) every failure becomes a 401 UNAUTHORIZED with the same message.
   */
  async authenticateHttpBasic(
    realmId: number,
    email: string,
    apiKey: string,
    options: { allowWebhookAccess?: boolean } = {},
  ): Promise<AuthenticatedUser> {
    try {
      return await this.authenticateApiKey(realmId, email, apiKey, options);
    } catch (error) {
      return asHttpBasicFailure(error);
    }
  }

  /**
   * `POST /fetch_api_key`: "Enter a valid email address." (400) for a malformed email; "Invalid
   * subdomain" (NONEXISTENT_SUBDOMAIN, 404) for an unknown organization or an account that exists
   * only in another one; "This organization has been deactivated" (REALM_DEACTIVATED, 401);
   * "Account is deactivated" (USER_DEACTIVATED, 401); otherwise "Your username or password is
   * incorrect" (AUTHENTICATION_FAILED, 401). Like Zulip, deactivation is reported before the
   * password is checked.
   */
  async authenticatePassword(realmId: number, email: string, password: string): Promise<FetchedApiKey> {
    if (!isValidEmailAddress(email)) throw new InvalidLoginEmailError();
    const realm = await this.realms.byId(realmId);
    if (!realm) throw new InvalidSubdomainError();
    if (password === '') throw new AuthenticationFailedError();
    const found = await this.findAccount(realmId, email);
    if (!found) {
      await verifyPassword(password, await this.dummyHash());
      return this.failUnknownAccount(realmId, email);
    }
    const { credential, user } = found;
    this.checkActive(realm, user);
    const passwordHash = credential.password_id === null ? null : await this.vault.passwordHash(credential.password_id);
    const ok = await verifyPassword(password, passwordHash ?? (await this.dummyHash()));
    if (!ok || passwordHash === null) throw new AuthenticationFailedError();
    return { user, actor: actorFromUser(user), apiKey: await this.apiKeyOf(credential) };
  }

  /**
   * `POST /dev_fetch_api_key`: any account by email, without a password, on development servers only
   * ("Endpoint not available in production.", elsewhere "DevAuthBackend not enabled."). Failures as
   * for authenticatePassword.
   */
  async authenticateDevelopment(realmId: number, email: string): Promise<FetchedApiKey> {
    checkDevAuthAvailable(this.config.env);
    if (!isValidEmailAddress(email)) throw new InvalidLoginEmailError();
    const realm = await this.realms.byId(realmId);
    if (!realm) throw new InvalidSubdomainError();
    const found = await this.findAccount(realmId, email);
    if (!found) return this.failUnknownAccount(realmId, email);
    this.checkActive(realm, found.user);
    return { user: found.user, actor: actorFromUser(found.user), apiKey: await this.apiKeyOf(found.credential) };
  }

  /** The account's current API key, from the credential store. */
  private async apiKeyOf(credential: CredentialDocument): Promise<string> {
    const apiKey = await this.vault.apiKey(credential.api_key_id);
    if (apiKey === null) throw new Error(`user ${credential.user_id}: the credential store has no entry ${credential.api_key_id} (run migrate-credentials)`);
    return apiKey;
  }

  /** zproject/backends.py is_user_active: the organization first, then the account. */
  private checkActive(realm: RealmDocument, user: UserDocument): void {
    if (realm.deactivated) throw new RealmDeactivatedError();
    if (!user.is_active) throw new UserDeactivatedError();
  }

  private async findAccount(realmId: number, email: string): Promise<{ credential: CredentialDocument; user: UserDocument } | null> {
    const credential = await this.users.credentialsByEmail(realmId, email);
    if (!credential) return null;
    const user = await this.users.byId(realmId, credential.user_id);
    return user ? { credential, user } : null;
  }

  private async failUnknownAccount(realmId: number, email: string): Promise<never> {
    if (await this.users.emailExistsInOtherRealm(realmId, email)) throw new InvalidSubdomainError();
    throw new AuthenticationFailedError();
  }

  private dummyHash(): Promise<string> {
    this.dummyPasswordHash ??= hashPassword(randomUUID(), this.config.passwordHashCost);
    return this.dummyPasswordHash;
  }
}
