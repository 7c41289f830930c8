/**
 * What an account authenticates with, kept out of the event log and the read models
 * (docs/security.md, "Where secrets live"). Events say only that a key or a password changed and
 * name the entry here that holds it (`apiKeyId`, `passwordId`). The key of an invitation's link is
 * kept here too (`invitationKeyEntryId`), so that the link can be mailed and shown again; its
 * events hold only the key's digest. So are the secrets of push registrations: a device's E2EE push
 * key (`push_key`), its registration encrypted for the push bouncer (`push_registration`), and a
 * legacy APNs or FCM token (`push_token`), named by the push-device events.
 */
export type CredentialKind = 'api_key' | 'password' | 'invitation_key' | PushSecretKind;

/** The entries of push registrations (the push-device events name them). */
export type PushSecretKind = 'push_key' | 'push_registration' | 'push_token';

export type CredentialEntry = {
  /** Named by the event that put it in use (UserCreated.apiKeyId, UserPasswordChanged.passwordId, …), or derived from the invitation's id. */
  id: string;
  realmId: number;
  /** The account it belongs to; for an invitation key, the invitation's maker; for a push secret, the device's user. */
  userId: number;
  kind: CredentialKind;
  /** API keys and invitation keys: the SHA-256 of the key (hex); null for passwords. */
  digest: string | null;
  /** The key or the password hash sealed with the key-encryption key (CredentialVault); never clear text. */
  sealed: string;
};

/**
 * The credential store. Adapters: SQLite (`DATA_DIR/credentials.sqlite`, owner-only) with the
 * embedded set, MongoDB (collection `_credentials`) with the servers set (libs/infrastructure).
 * The behaviour is pinned by libs/testing/src/contracts/credential-store.contract.ts.
 */
export interface CredentialStorePort {
  /** Stores an entry; an entry already stored under its id stays as it is (a retried write or migration step). */
  put(entry: CredentialEntry): Promise<void>;
  get(id: string): Promise<CredentialEntry | null>;
  /** Deletes one entry (stored for a command its decider then refused); nothing when absent. */
  remove(id: string): Promise<void>;
  /**
   * Deletes the user's entries of this kind stored before `keepId` (the superseded keys and
   * hashes), never `keepId` itself nor entries stored after it (a concurrent change that has not
   * reached the log yet). Answers how many went.
   */
  pruneBefore(userId: number, kind: CredentialKind, keepId: string): Promise<number>;
  /** A named mark of the store (the credential migration's progress); null when never set. */
  mark(name: string): Promise<string | null>;
  setMark(name: string, value: string): Promise<void>;
  close(): Promise<void>;
}
