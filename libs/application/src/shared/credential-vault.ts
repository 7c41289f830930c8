import { hash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CredentialEntry, CredentialKind, CredentialStorePort, PushSecretKind } from '../ports/credential-store.port';
import type { RandomPort } from '../ports/random.port';
import { CREDENTIAL_KEY, CREDENTIAL_STORE, RANDOM } from '../ports/tokens';
import { seal, unseal } from '../shared/sealing';

// The sealing code is shared with the content keys (docs/security.md).
export { seal, unseal } from '../shared/sealing';

/** Length of the key-encryption key (AES-256). */
export const CREDENTIAL_KEY_BYTES = 32;

/**
 * SHA-256 of an API key, in hex: what authentication compares. The key has ~190 bits of entropy,
 * so its digest gives nothing back. Hex text, so that it can sit in the authentication cache's
 * frozen documents.
 */
export const apiKeyDigest = (apiKey: string): string => hash('sha256', apiKey, 'hex'); // one-shot: ~0.6 µs, a Hash object ~3 µs

/** Whether a presented key's digest is the stored one, in constant time. */
export function digestsMatch(presented: string, stored: string): boolean {
  const a = Buffer.from(presented, 'latin1');
  const b = Buffer.from(stored, 'latin1');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The entry holding the key of invitation `invitationId` (both kinds; one space of ids per organization). */
export const invitationKeyEntryId = (realmId: number, invitationId: number): string => `invitation_key:${realmId}:${invitationId}`;

const aadOf = (entry: Pick<CredentialEntry, 'id' | 'kind'>) => `${entry.kind}:${entry.id}`;

/**
 * The application's door to the credential store (docs/security.md): command handlers store a new
 * API key or password hash here before the event that names it is appended; authentication reads
 * an API key's digest; `fetch_api_key`, the bots list and `realm_bot` events read the key itself.
 * Everything is sealed with the key-encryption key (CREDENTIAL_KEY), which no database holds: a
 * stolen copy of the store gives neither keys nor hashes, and its digests only confirm a key one
 * already has.
 */
@Injectable()
export class CredentialVault {
  constructor(
    @Inject(CREDENTIAL_STORE) private readonly store: CredentialStorePort,
    @Inject(CREDENTIAL_KEY) private readonly key: Buffer,
    @Inject(RANDOM) private readonly random: RandomPort,
  ) {
    if (key.length !== CREDENTIAL_KEY_BYTES) throw new Error(`the credential key must be ${CREDENTIAL_KEY_BYTES} bytes`);
  }

  /** Stores an API key (under `id`, or a new id) and answers the id the event is to name. */
  async storeApiKey(realmId: number, userId: number, apiKey: string, id = this.random.uuid()): Promise<string> {
    const entry = { id, realmId, userId, kind: 'api_key' as const };
    await this.store.put({ ...entry, digest: apiKeyDigest(apiKey), sealed: seal(this.key, aadOf(entry), apiKey) });
    return id;
  }

  /** Stores a password hash (under `id`, or a new id) and answers the id the event is to name. */
  async storePasswordHash(realmId: number, userId: number, passwordHash: string, id = this.random.uuid()): Promise<string> {
    const entry = { id, realmId, userId, kind: 'password' as const };
    await this.store.put({ ...entry, digest: null, sealed: seal(this.key, aadOf(entry), passwordHash) });
    return id;
  }

  /**
   * Stores the key of an invitation's link (before the event that holds its digest), so that the
   * link can be mailed again (resend) and a multiuse link shown again (GET /invites).
   */
  async storeInvitationKey(realmId: number, referrerId: number, invitationId: number, key: string, digest: string): Promise<string> {
    const entry = { id: invitationKeyEntryId(realmId, invitationId), realmId, userId: referrerId, kind: 'invitation_key' as const };
    await this.store.put({ ...entry, digest, sealed: seal(this.key, aadOf(entry), key) });
    return entry.id;
  }

  /** An invitation's key; null when not kept (an invitation made before keys were kept, or spent). */
  async invitationKey(realmId: number, invitationId: number): Promise<string | null> {
    const entry = await this.entry(invitationKeyEntryId(realmId, invitationId), 'invitation_key');
    return entry && unseal(this.key, aadOf(entry), entry.sealed);
  }

  /**
   * Stores a secret of a push registration (a push key, an encrypted registration, a legacy token)
   * under a new id and answers it, for the push-device event to name.
   */
  async storePushSecret(kind: PushSecretKind, realmId: number, userId: number, secret: string, id = this.random.uuid()): Promise<string> {
    const entry = { id, realmId, userId, kind };
    await this.store.put({ ...entry, digest: null, sealed: seal(this.key, aadOf(entry), secret) });
    return id;
  }

  /** A push secret, for whatever sends the notifications; null for an unknown (or released) entry. */
  async pushSecret(id: string, kind: PushSecretKind): Promise<string | null> {
    const entry = await this.entry(id, kind);
    return entry && unseal(this.key, aadOf(entry), entry.sealed);
  }

  /** The digest authentication compares a presented key's with; null for an unknown entry. */
  async apiKeyDigest(id: string): Promise<string | null> {
    const entry = await this.entry(id, 'api_key');
    return entry?.digest ?? null;
  }

  /** The API key itself, for its user (fetch_api_key) and a bot's owner; null for an unknown entry. */
  async apiKey(id: string): Promise<string | null> {
    const entry = await this.entry(id, 'api_key');
    return entry && unseal(this.key, aadOf(entry), entry.sealed);
  }

  async passwordHash(id: string): Promise<string | null> {
    const entry = await this.entry(id, 'password');
    return entry && unseal(this.key, aadOf(entry), entry.sealed);
  }

  /**
   * Stores a new secret, runs the command whose event names it, and forgets the entry when the
   * command fails (a refused command leaves nothing behind). The entry is written first, so that
   * once the event is in the log (and the read models) its secret is always there to read.
   */
  async storedFor<T>(id: string, store: () => Promise<unknown>, command: () => Promise<T>): Promise<T> {
    await store();
    try {
      return await command();
    } catch (error) {
      await this.store.remove(id).catch(() => undefined);
      throw error;
    }
  }

  /** Forgets one entry (best effort). */
  async forget(id: string): Promise<void> {
    await this.store.remove(id).catch(() => undefined);
  }

  /** Forgets the user's keys or hashes superseded by `keepId` (best effort: a failure leaves only dead entries). */
  async pruneBefore(userId: number, kind: CredentialKind, keepId: string): Promise<void> {
    await this.store.pruneBefore(userId, kind, keepId).catch(() => 0);
  }

  private async entry(id: string, kind: CredentialKind): Promise<CredentialEntry | null> {
    const entry = await this.store.get(id);
    return entry && entry.kind === kind ? entry : null;
  }
}
