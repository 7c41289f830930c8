/**
 * What an account authenticates with, kept out of the event log and the read models
 * (docs/security.md, "Where secrets live"). Events say only that a key or a password changed and
 * name the entry here that holds it (`apiKeyId`, `passwordId`).
 */
export type CredentialKind = 'api_key' | 'password';

export type CredentialEntry = {
  /** Named by the event that put it in use (UserCreated.apiKeyId, UserPasswordChanged.passwordId, …). */
  id: string;
  realmId: number;
  userId: number;
  kind: CredentialKind;
  /** API keys: the SHA-256 of the key (hex), what authentication compares; null for passwords. */
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
