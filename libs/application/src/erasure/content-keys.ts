import { createHmac } from 'node:crypto';
import { type BatchPuncturer, CONTENT_KEY_GONE, type ContentKeyRequest, type ContentKeyStorePort, type StoredContentKey } from '../ports/content-key-store.port';
import { pooledRandomBytes, seal, unseal } from '../shared/sealing';
import { BoundedCache } from '../shared/bounded-cache';
import { ContentKeyMissingError } from './content-key-missing-error';
import { messageScope } from './content-protection';

/** A content key in clear, in memory only. */
export type ContentKey = { keyId: string; key: Buffer };

export const CONTENT_KEY_BYTES = 32;

/** Keys opened per process, at most (a BoundedCache: two generations of half); a message's key serves all of its events, so replays hit it. */
const DEFAULT_CACHE_SIZE = 20_000;
/**
 * Message ids per batch key. Never change it: a deletion finds its message's batch from the id
 * (the scope names its range, `messages:<first>-<last>`, so the keys stay readable whatever it is).
 */
export const MESSAGE_BATCH_SIZE = 256;

/** The scope of the batch key a message's key derives from. */
export function messageBatchScope(messageId: number): string {
  const first = Math.floor(messageId / MESSAGE_BATCH_SIZE) * MESSAGE_BATCH_SIZE;
  return `messages:${first}-${first + MESSAGE_BATCH_SIZE - 1}`;
}

function batchRange(scope: string): [number, number] {
  const [first, last] = scope.slice('messages:'.length).split('-').map(Number);
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last < first) throw new Error(`${scope} is not a batch scope`);
  return [first, last];
}

/**
 * A batch row's keys, unwrapped: the batch key while no message of it was erased; after a
 * puncture, the keys of the messages left (stored as `survivors:` and their JSON, under the same
 * key id), from which no erased message's key follows.
 */
type BatchKeys = { keyId: string; key: Buffer | null; survivors: Map<number, Buffer> | null };
const SURVIVORS = 'survivors:';

/** A message's key from its batch's keys; null when it was punctured out. */
function keyInBatch(batch: BatchKeys, messageId: number): Buffer | null {
  return batch.key ? deriveMessageKey(batch.key, messageId) : (batch.survivors!.get(messageId) ?? null);
}

/** A message's key id under its batch key: the batch key's id, a slash, the message's id. */
export const derivedKeyId = (batchKeyId: string, messageId: number): string => `${batchKeyId}/${messageId}`;

/**
 * A message's key from its batch's: HMAC-SHA256 as a pseudo-random function, so that the keys of
 * one batch tell nothing of each other, and none can be had once the batch key is destroyed.
 */
export function deriveMessageKey(batchKey: Buffer, messageId: number): Buffer {
  return createHmac('sha256', batchKey).update(`message-key\0${messageId}`).digest();
}

/**
 * A key id in UUIDv7's layout (RFC 9562): the time in milliseconds, then 74 random bits. New ids
 * sort after older ones, so the key store's id index grows at its right edge (when a key was
 * created per message, random UUIDs made each write of 64 dirty about 30 index pages). The time
 * says no more than the event's own `recordedAt`.
 */
export function timeOrderedKeyId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  const random = pooledRandomBytes(10).toString('hex');
  const variant = ((parseInt(random[3], 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(8, 20)}`;
}

/**
 * The application's door to the content-key store: random 256-bit keys, wrapped (sealed) with the
 * credential store's key-encryption key before they are stored, so that a copy of the key store
 * alone opens nothing; opened keys cached in memory (a BoundedCache). A topic's scope is stored as an HMAC of
 * the topic under the key-encryption key, so that the store never holds a topic's name either.
 *
 * A message's key is derived from its batch's (MESSAGE_BATCH_SIZE ids, one stored key): a send
 * costs one HMAC, and the key store is written once a batch. Erasing a message punctures its batch
 * (`scheduleMessageErasure`, then the purge): the batch's row is rewritten to hold the other
 * messages' keys instead of the batch key, so the erased message's key can no longer be had from
 * anything stored (docs/security.md, "How erasure works").
 */
export class ContentKeys {
  private readonly opened: BoundedCache<string, Buffer | typeof CONTENT_KEY_GONE>;
  /** scope → key, for message scopes only (a topic's key may be destroyed by another process). */
  private readonly byScope: BoundedCache<string, ContentKey>;
  /** Batch rows opened, by key id and by scope. */
  private readonly batches: BoundedCache<string, BatchKeys | typeof CONTENT_KEY_GONE>;
  private readonly batchOfScope: BoundedCache<string, BatchKeys>;
  private readonly topicScopes = new BoundedCache<string, string>(5_000);

  constructor(
    readonly store: ContentKeyStorePort,
    private readonly kek: Buffer,
    cacheSize = DEFAULT_CACHE_SIZE,
  ) {
    this.opened = new BoundedCache(Math.max(1, Math.floor(cacheSize / 2)));
    this.byScope = new BoundedCache(Math.max(1, Math.floor(cacheSize / 8)));
    this.batches = new BoundedCache(Math.max(1, Math.floor(cacheSize / 64)));
    this.batchOfScope = new BoundedCache(Math.max(1, Math.floor(cacheSize / 64)));
  }

  /** The scope as stored: a topic's name replaced by its HMAC (remembered: a topic is asked for on every send to it). */
  storedScope(scope: string): string {
    if (!scope.startsWith('topic:')) return scope;
    let stored = this.topicScopes.get(scope);
    if (stored === undefined) this.topicScopes.set(scope, (stored = this.topicScopeOf(scope)));
    return stored;
  }

  private topicScopeOf(scope: string): string {
    const [, realmId, streamId] = scope.split(':', 3);
    const name = scope.slice(`topic:${realmId}:${streamId}:`.length);
    return `topic:${realmId}:${streamId}:${createHmac('sha256', this.kek).update(`topic-scope\0${name}`).digest('base64url').slice(0, 32)}`;
  }

  /** Whether keys can be had synchronously (inside the embedded store's id-taking append). */
  get canCreateNow(): boolean {
    return this.store.getOrCreateNow !== undefined;
  }

  /** The live key of each scope (a message's derived from its batch's; created when it has none), with the topic members added, in one write. */
  async keysFor(wanted: { scope: string; members?: number[] }[]): Promise<Map<string, ContentKey>> {
    const { found, requests, created, waiting } = this.pending(wanted);
    if (requests.length > 0) this.remember(await this.store.getOrCreate(requests), wanted, found, created, waiting);
    return found;
  }

  /** keysFor, synchronously (only when canCreateNow). */
  keysForNow(wanted: { scope: string; members?: number[] }[]): Map<string, ContentKey> {
    const { found, requests, created, waiting } = this.pending(wanted);
    if (requests.length > 0) this.remember(this.store.getOrCreateNow!(requests), wanted, found, created, waiting);
    return found;
  }

  /**
   * The keys of these ids, opened (from the cache, else a store read), or `gone` once destroyed. A
   * derived id (`<batch key id>/<message>`) opens with its batch row: derived from the batch key,
   * or taken from the survivors a puncture left; a message punctured out reads as erased.
   */
  async resolve(keyIds: Iterable<string>): Promise<Map<string, Buffer | typeof CONTENT_KEY_GONE>> {
    const keys = new Map<string, Buffer | typeof CONTENT_KEY_GONE>();
    for (const keyId of keyIds) {
      if (keys.has(keyId)) continue;
      let key = this.opened.get(keyId);
      if (key === undefined) {
        const slash = keyId.indexOf('/');
        key = slash < 0 ? await this.openStored(keyId) : await this.openDerived(keyId.slice(0, slash), Number(keyId.slice(slash + 1)));
        this.opened.set(keyId, key);
      }
      keys.set(keyId, key);
    }
    return keys;
  }

  private async openStored(keyId: string): Promise<Buffer | typeof CONTENT_KEY_GONE> {
    const stored = await this.store.get(keyId);
    // An id the store never had: the log was written with another key store (not an erasure).
    if (stored === null) throw new ContentKeyMissingError(keyId, 'missing');
    return stored === CONTENT_KEY_GONE ? CONTENT_KEY_GONE : this.unwrap(stored);
  }

  private async openDerived(batchKeyId: string, messageId: number): Promise<Buffer | typeof CONTENT_KEY_GONE> {
    let batch = this.batches.get(batchKeyId);
    if (batch === undefined) {
      const stored = await this.store.get(batchKeyId);
      if (stored === null) throw new ContentKeyMissingError(batchKeyId, 'missing');
      batch = stored === CONTENT_KEY_GONE ? CONTENT_KEY_GONE : this.unwrapBatch(stored);
      this.batches.set(batchKeyId, batch);
    }
    return batch === CONTENT_KEY_GONE ? CONTENT_KEY_GONE : (keyInBatch(batch, messageId) ?? CONTENT_KEY_GONE);
  }

  /**
   * A deleted message's keys, to be destroyed at `at`: its batch punctured (the purge does it), and
   * the key of its own a log sealed before batch keys gave it.
   */
  async scheduleMessageErasure(messageId: number, at: Date): Promise<void> {
    await this.store.scheduleDestroy(messageScope(messageId), at);
    await this.store.schedulePuncture(messageId, messageBatchScope(messageId), at);
  }

  /** Destroys the keys whose time has come (punctures included); forgets every key this process holds in memory. */
  async destroyDue(now: Date, limit: number): Promise<number> {
    const destroyed = await this.store.destroyDue(now, limit, this.puncture);
    if (destroyed > 0) {
      this.opened.clear();
      this.byScope.clear();
      this.batches.clear();
      this.batchOfScope.clear();
    }
    return destroyed;
  }

  /** A batch row's new value without the punctured messages' keys: the others' keys, wrapped together; null when none is left. */
  private readonly puncture: BatchPuncturer = (stored, punctured) => {
    const batch = this.unwrapBatch(stored);
    const [first, last] = batchRange(stored.scope);
    const survivors: Record<number, string> = {};
    let left = 0;
    for (let messageId = first; messageId <= last; messageId++) {
      const key = punctured.has(messageId) ? null : keyInBatch(batch, messageId);
      if (key === null) continue;
      survivors[messageId] = key.toString('base64');
      left++;
    }
    return left === 0 ? null : seal(this.kek, `content_key:${stored.keyId}`, `${SURVIVORS}${JSON.stringify(survivors)}`);
  };

  /** A message's key from its batch's keys (remembered for its next events and its readers). */
  private messageKey(batch: BatchKeys, messageId: number): ContentKey {
    const key = keyInBatch(batch, messageId);
    // Only a deleted message is punctured out, and nothing is appended for it after its deletion.
    if (key === null) throw new Error(`message ${messageId} was erased: nothing can be sealed for it`);
    const derived = { keyId: derivedKeyId(batch.keyId, messageId), key };
    this.byScope.set(messageScope(messageId), derived);
    this.opened.set(derived.keyId, key);
    return derived;
  }

  private pending(wanted: { scope: string; members?: number[] }[]): {
    found: Map<string, ContentKey>;
    requests: ContentKeyRequest[];
    created: Map<string, Buffer>;
    /** Message scopes waiting for their batch's key from the store. */
    waiting: { scope: string; messageId: number; batchScope: string }[];
  } {
    const found = new Map<string, ContentKey>();
    const requests: ContentKeyRequest[] = [];
    // Keys this call made (a scope without a live key): no need to unwrap what was just wrapped.
    const created = new Map<string, Buffer>();
    const requested = new Map<string, ContentKeyRequest>();
    const waiting: { scope: string; messageId: number; batchScope: string }[] = [];
    const request = (scope: string, members?: number[]) => {
      const r: ContentKeyRequest = {
        scope: this.storedScope(scope),
        members,
        candidate: () => {
          const { keyId, key, wrapped } = this.newKey();
          created.set(keyId, key);
          return { keyId, wrapped };
        },
      };
      requested.set(scope, r);
      requests.push(r);
    };
    for (const { scope, members } of wanted) {
      if (scope.startsWith('message:')) {
        if (found.has(scope)) continue;
        const cached = this.byScope.get(scope);
        if (cached) {
          found.set(scope, cached);
          continue;
        }
        const messageId = Number(scope.slice('message:'.length));
        const batchScope = messageBatchScope(messageId);
        const batch = this.batchOfScope.get(batchScope);
        if (batch) {
          found.set(scope, this.messageKey(batch, messageId));
          continue;
        }
        waiting.push({ scope, messageId, batchScope });
        if (!requested.has(batchScope)) request(batchScope);
        continue;
      }
      const already = requested.get(scope);
      if (already) {
        // One request per scope (a message's content, rendering and widget share its key).
        if (members?.length) already.members = [...(already.members ?? []), ...members];
        continue;
      }
      if (found.has(scope) && !members?.length) continue;
      request(scope, members);
    }
    return { found, requests, created, waiting };
  }

  private remember(
    stored: StoredContentKey[],
    wanted: { scope: string }[],
    found: Map<string, ContentKey>,
    created: Map<string, Buffer>,
    waiting: { scope: string; messageId: number; batchScope: string }[],
  ): void {
    const byStoredScope = new Map<string, string>();
    for (const { scope } of wanted) byStoredScope.set(this.storedScope(scope), scope);
    for (const { batchScope } of waiting) byStoredScope.set(batchScope, batchScope);
    const batches = new Map<string, BatchKeys>();
    for (const entry of stored) {
      const scope = byStoredScope.get(entry.scope)!;
      if (scope.startsWith('messages:')) {
        const createdKey = created.get(entry.keyId);
        const opened = this.batches.get(entry.keyId);
        const batch = createdKey ? { keyId: entry.keyId, key: createdKey, survivors: null } : opened && opened !== CONTENT_KEY_GONE ? opened : this.unwrapBatch(entry);
        batches.set(scope, batch);
        this.batches.set(entry.keyId, batch);
        this.batchOfScope.set(scope, batch);
        continue;
      }
      let key = created.get(entry.keyId) ?? this.opened.get(entry.keyId);
      if (key === undefined || key === CONTENT_KEY_GONE) key = this.unwrap(entry);
      this.opened.set(entry.keyId, key);
      found.set(scope, { keyId: entry.keyId, key });
    }
    for (const { scope, messageId, batchScope } of waiting) found.set(scope, this.messageKey(batches.get(batchScope)!, messageId));
  }

  private newKey(): { keyId: string; key: Buffer; wrapped: string } {
    const keyId = timeOrderedKeyId();
    const key = pooledRandomBytes(CONTENT_KEY_BYTES);
    return { keyId, key, wrapped: seal(this.kek, `content_key:${keyId}`, key.toString('base64')) };
  }

  private unwrap(stored: StoredContentKey): Buffer {
    return Buffer.from(this.unwrapClear(stored), 'base64');
  }

  private unwrapBatch(stored: StoredContentKey): BatchKeys {
    const clear = this.unwrapClear(stored);
    if (!clear.startsWith(SURVIVORS)) return { keyId: stored.keyId, key: Buffer.from(clear, 'base64'), survivors: null };
    const survivors = JSON.parse(clear.slice(SURVIVORS.length)) as Record<string, string>;
    return { keyId: stored.keyId, key: null, survivors: new Map(Object.entries(survivors).map(([id, key]) => [Number(id), Buffer.from(key, 'base64')])) };
  }

  /** A key that does not unwrap (GCM authentication fails) was wrapped with another key-encryption key. */
  private unwrapClear(stored: StoredContentKey): string {
    try {
      return unseal(this.kek, `content_key:${stored.keyId}`, stored.wrapped);
    } catch (error) {
      throw new ContentKeyMissingError(stored.keyId, 'wrong-kek', { cause: error });
    }
  }
}
