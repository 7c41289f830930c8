import { createHmac } from 'node:crypto';
import { CONTENT_KEY_GONE, type ContentKeyRequest, type ContentKeyStorePort, type StoredContentKey } from '../ports/content-key-store.port';
import { pooledRandomBytes, seal, unseal } from '../shared/sealing';
import { BoundedCache } from '../shared/bounded-cache';
import { ContentKeyMissingError } from './content-key-missing-error';

/** A content key in clear, in memory only. */
export type ContentKey = { keyId: string; key: Buffer };

export const CONTENT_KEY_BYTES = 32;

/** Keys opened per process, at most (a BoundedCache: two generations of half); a message's key serves all of its events, so replays hit it. */
const DEFAULT_CACHE_SIZE = 20_000;
/** Message keys created ahead, in one key-store write (see `reservedUpTo`). */
const RESERVED_KEYS = 64;

/**
 * A key id in UUIDv7's layout (RFC 9562): the time in milliseconds, then 74 random bits. New ids
 * sort after older ones, so the key store's id index grows at its right edge: a batch of keys
 * created ahead dirties a page or two instead of one random page per key (random UUIDs made each
 * batch's commit write about 30 index pages to the WAL). The time says no more than the event's
 * own `recordedAt`.
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
 */
export class ContentKeys {
  private readonly opened: BoundedCache<string, Buffer | typeof CONTENT_KEY_GONE>;
  /** scope → key, for message scopes only (a topic's key may be destroyed by another process). */
  private readonly byScope: BoundedCache<string, ContentKey>;
  private readonly topicScopes = new BoundedCache<string, string>(5_000);
  /**
   * Message keys are created ahead, for the ids after the highest message this process sealed
   * (RESERVED_KEYS in one write, after the request): a send then finds its message's key in
   * `byScope` and writes no key row (a direct message: no key-store write at all). A reserved key is
   * a stored key like any other, so no event is ever sealed under a key that is not in the store;
   * an id another process takes finds the row there; an id never used leaves a key that seals nothing.
   */
  private reservedUpTo = 0;
  private reserving = false;

  constructor(
    readonly store: ContentKeyStorePort,
    private readonly kek: Buffer,
    cacheSize = DEFAULT_CACHE_SIZE,
  ) {
    this.opened = new BoundedCache(Math.max(1, Math.floor(cacheSize / 2)));
    this.byScope = new BoundedCache(Math.max(1, Math.floor(cacheSize / 8)));
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

  /** The live key of each scope (created when it has none), with the topic members added, in one write. */
  async keysFor(wanted: { scope: string; members?: number[] }[], reserve = true): Promise<Map<string, ContentKey>> {
    const { found, requests, created } = this.pending(wanted);
    if (requests.length > 0) this.remember(await this.store.getOrCreate(requests), wanted, found, created);
    if (reserve) this.reserveAhead(found, created);
    return found;
  }

  /** keysFor, synchronously (only when canCreateNow). */
  keysForNow(wanted: { scope: string; members?: number[] }[], reserve = true): Map<string, ContentKey> {
    const { found, requests, created } = this.pending(wanted);
    if (requests.length > 0) this.remember(this.store.getOrCreateNow!(requests), wanted, found, created);
    if (reserve) this.reserveAhead(found, created);
    return found;
  }

  /** New messages (a key created now, or a reserved one taken) move the reservation on; an old message's edit or reaction does not. */
  private reserveAhead(found: Map<string, ContentKey>, created: Map<string, Buffer>): void {
    let highest = 0;
    for (const [scope, { keyId }] of found) {
      if (!scope.startsWith('message:')) continue;
      const id = Number(scope.slice('message:'.length));
      if (created.has(keyId) || (id > this.reservedUpTo - RESERVED_KEYS && id <= this.reservedUpTo)) highest = Math.max(highest, id);
    }
    if (highest > 0) this.reserveAfter(highest);
  }

  /** The keys of these ids, opened (from the cache, else one store read each), or `gone` once destroyed. */
  async resolve(keyIds: Iterable<string>): Promise<Map<string, Buffer | typeof CONTENT_KEY_GONE>> {
    const keys = new Map<string, Buffer | typeof CONTENT_KEY_GONE>();
    for (const keyId of keyIds) {
      if (keys.has(keyId)) continue;
      let key = this.opened.get(keyId);
      if (key === undefined) {
        const stored = await this.store.get(keyId);
        // An id the store never had: the log was written with another key store (not an erasure).
        if (stored === null) throw new ContentKeyMissingError(keyId, 'missing');
        key = stored === CONTENT_KEY_GONE ? CONTENT_KEY_GONE : this.unwrap(stored);
        this.opened.set(keyId, key);
      }
      keys.set(keyId, key);
    }
    return keys;
  }

  /** Destroys the keys whose time has come; forgets every key this process holds in memory. */
  async destroyDue(now: Date, limit: number): Promise<number> {
    const destroyed = await this.store.destroyDue(now, limit);
    if (destroyed > 0) {
      this.opened.clear();
      this.byScope.clear();
      // The reserved keys were forgotten with the rest (they are in the store: reserving again finds them).
      this.reservedUpTo = 0;
    }
    return destroyed;
  }

  private pending(wanted: { scope: string; members?: number[] }[]): { found: Map<string, ContentKey>; requests: ContentKeyRequest[]; created: Map<string, Buffer> } {
    const found = new Map<string, ContentKey>();
    const requests: ContentKeyRequest[] = [];
    // Keys this call made (a scope without a live key): no need to unwrap what was just wrapped.
    const created = new Map<string, Buffer>();
    const requested = new Map<string, ContentKeyRequest>();
    for (const { scope, members } of wanted) {
      const already = requested.get(scope);
      if (already) {
        // One request per scope (a message's content, rendering and widget share its key).
        if (members?.length) already.members = [...(already.members ?? []), ...members];
        continue;
      }
      if (found.has(scope) && !members?.length) continue;
      const cached = members?.length ? undefined : this.byScope.get(scope);
      if (cached) {
        found.set(scope, cached);
        continue;
      }
      const request: ContentKeyRequest = {
        scope: this.storedScope(scope),
        members,
        candidate: () => {
          const { keyId, key, wrapped } = this.newKey();
          created.set(keyId, key);
          return { keyId, wrapped };
        },
      };
      requested.set(scope, request);
      requests.push(request);
    }
    return { found, requests, created };
  }

  private remember(stored: StoredContentKey[], wanted: { scope: string }[], found: Map<string, ContentKey>, created: Map<string, Buffer>): void {
    const byStoredScope = new Map<string, string>();
    for (const { scope } of wanted) byStoredScope.set(this.storedScope(scope), scope);
    for (const entry of stored) {
      const scope = byStoredScope.get(entry.scope)!;
      let key = created.get(entry.keyId) ?? this.opened.get(entry.keyId);
      if (key === undefined || key === CONTENT_KEY_GONE) key = this.unwrap(entry);
      const answer = { keyId: entry.keyId, key };
      found.set(scope, answer);
      this.opened.set(entry.keyId, key);
      if (scope.startsWith('message:')) this.byScope.set(scope, answer);
    }
  }

  /** After a message's key was asked for: the next ones are created ahead, off the request path, when few are left. */
  private reserveAfter(messageId: number): void {
    if (this.reserving || messageId + RESERVED_KEYS / 2 <= this.reservedUpTo) return;
    this.reserving = true;
    setImmediate(() => {
      const from = Math.max(messageId, this.reservedUpTo) + 1;
      const to = messageId + RESERVED_KEYS;
      const wanted = Array.from({ length: to - from + 1 }, (_, i) => ({ scope: `message:${from + i}` }));
      const done = (ok: boolean) => {
        if (ok) this.reservedUpTo = to;
        this.reserving = false;
      };
      // A failed reservation costs nothing but its speed: the send creates its key itself.
      if (this.canCreateNow) {
        try {
          this.keysForNow(wanted, false);
          done(true);
        } catch {
          done(false);
        }
      } else this.keysFor(wanted, false).then(() => done(true), () => done(false));
    }).unref();
  }

  private newKey(): { keyId: string; key: Buffer; wrapped: string } {
    const keyId = timeOrderedKeyId();
    const key = pooledRandomBytes(CONTENT_KEY_BYTES);
    return { keyId, key, wrapped: seal(this.kek, `content_key:${keyId}`, key.toString('base64')) };
  }

  /** A key that does not unwrap (GCM authentication fails) was wrapped with another key-encryption key. */
  private unwrap(stored: StoredContentKey): Buffer {
    let clear: string;
    try {
      clear = unseal(this.kek, `content_key:${stored.keyId}`, stored.wrapped);
    } catch (error) {
      throw new ContentKeyMissingError(stored.keyId, 'wrong-kek', { cause: error });
    }
    return Buffer.from(clear, 'base64');
  }
}
