/**
 * The content-key store: one data key per batch of message ids (`messages:<first>-<last>`, from
 * which each message's key is derived), a key per topic
 * (`topic:<realmId>:<streamId>:<lowercased topic>`), with which the event log's copies of message
 * texts are sealed (docs/security.md, "How erasure works"). Destroying a key erases what it sealed
 * from every copy of the log at once: the events, exports, backups, EventStoreDB.
 *
 * The store never sees a key in clear: `wrapped` is the key sealed with the credential store's
 * key-encryption key (ContentKeys does the crypto). Adapters: SQLite (`DATA_DIR/content-keys.sqlite`,
 * owner-only, `secure_delete`) with the embedded set, MongoDB (collection `content_keys`) with the
 * servers set. The behaviour is pinned by libs/testing/src/contracts/content-key-store.contract.ts.
 */
export type StoredContentKey = { keyId: string; scope: string; wrapped: string };

/**
 * Called by `destroyDue` for a live batch key with due punctures: the batch row's new wrapped
 * value, which holds the keys of the batch's messages that are not punctured (and none from which
 * a punctured one's follows), or null when none is left (the row is then destroyed). ContentKeys
 * does the crypto; the row keeps its key id, which the log's envelopes name.
 */
export type BatchPuncturer = (batch: StoredContentKey, punctured: ReadonlySet<number>) => string | null;

/** A destroyed key: its id and scope stay known (so that a read says "erased", not "unknown key"). */
export const CONTENT_KEY_GONE = 'gone' as const;

/**
 * One scope's key asked for: `candidate` is called (a new key made and wrapped) and stored only
 * when the scope has no live key, so that asking for an existing topic's key costs no crypto.
 */
export type ContentKeyRequest = {
  scope: string;
  candidate: () => { keyId: string; wrapped: string };
  /**
   * Topic scopes: message ids that mention the topic (sent to it, moved into it), added to its
   * members in the same write, before the event naming them is appended, so that the purge never
   * destroys a topic's key while a message of it is being written.
   */
  members?: number[];
};

export interface ContentKeyStorePort {
  /**
   * The live key of each scope, or its `candidate` stored when the scope has none (a scope whose
   * key was destroyed gets the candidate, under its new id). One write for the whole batch; two
   * racing callers get the same key.
   */
  getOrCreate(requests: ContentKeyRequest[]): Promise<StoredContentKey[]>;
  /**
   * The same, synchronously: offered by a store that can answer inside another database's write
   * transaction (SQLite), so that a send seals its message inside the append that takes its id.
   */
  getOrCreateNow?(requests: ContentKeyRequest[]): StoredContentKey[];
  /** A key by id; `gone` once destroyed; null when this store never had it. */
  get(keyId: string): Promise<StoredContentKey | typeof CONTENT_KEY_GONE | null>;
  /**
   * Marks the live key of `scope` for destruction at `at` (the earlier time wins when already
   * marked). Nothing when the scope has no live key.
   */
  scheduleDestroy(scope: string, at: Date): Promise<void>;
  /**
   * Marks a message's key to be punctured out of its batch (`batchScope`) at `at` (the earlier
   * time wins when already marked).
   */
  schedulePuncture(messageId: number, batchScope: string, at: Date): Promise<void>;
  /**
   * Carries out up to `limit` due punctures and key destructions (oldest first) and answers how
   * many. The due punctures of a batch: its live row, if any, is rewritten with what `puncture`
   * answers (destroyed when that is null), in one atomic step, and the punctures are done. A topic key is
   * destroyed only while its topic has no member left; one that gained a member is unmarked
   * instead.
   */
  destroyDue(now: Date, limit: number, puncture: BatchPuncturer): Promise<number>;
  /**
   * A deleted message leaves the members of every topic scope it was in; answers the scopes
   * left with no member (whose keys are then to be destroyed). Idempotent.
   */
  releaseMessage(messageId: number): Promise<string[]>;
  /** A named mark (the content migration's progress); null when never set. */
  mark(name: string): Promise<string | null>;
  setMark(name: string, value: string): Promise<void>;
  close(): Promise<void>;
}
