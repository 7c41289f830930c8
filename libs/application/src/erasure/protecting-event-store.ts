import type {
  AllSubscription,
  AllSubscriptionHandler,
  AppendResult,
  EventStorePort,
  EventToAppend,
  ExpectedRevision,
  GlobalPosition,
  ReadStreamResult,
  RecordedEvent,
  StreamRevision,
} from '../ports/event-store.port';
import { CONTENT_KEY_GONE } from '../ports/content-key-store.port';
import { BoundedCache } from '../shared/bounded-cache';
import { seal, unseal } from '../shared/sealing';
import type { ContentKey, ContentKeys } from './content-keys';
import { ENVELOPES, type Envelopes, envelopesOf, isSealedValue, sealDecision, topicScope, valueAt, withValuesAt, type SealedField } from './content-protection';

/** Keys destroyed per purge run at most (the job runs again for the rest). */
export const PURGE_BATCH = 1000;
/** With no vacuuming delay, how long a topic's key outlives the deletion of its last message (for the deletion's fan-out). */
export const TOPIC_GRACE_MS = 60_000;
/** Opened payloads kept for the log's other subscribers, at most (events, not bytes: message events are small; two generations of half). */
const OPENED_EVENTS_KEPT = 4096;

export type ErasureSettings = {
  /** ARCHIVED_DATA_VACUUMING_DELAY_DAYS: days between a message's deletion and its keys' destruction (0: at once). */
  vacuumingDelayDays: number;
  now: () => Date;
  /** Told of a failure of the bookkeeping after an append (the purge job catches up). */
  onError?: (error: unknown) => void;
};

/** The associated data of an envelope: its key and the event's type (the fields' paths are inside it). */
const aadOf = (keyId: string, type: string) => `${keyId}|${type}`;

/** What one event needs sealed: the scopes of its sealed fields and the topic members it adds. */
function wantedScopes(events: readonly { type: string; data: object }[]): { scope: string; members?: number[] }[] {
  const wanted: { scope: string; members?: number[] }[] = [];
  for (const event of events) {
    for (const f of sealDecision(event.type) ?? []) {
      if (typeof valueAt(event.data, f.path) !== 'string') continue;
      const scope = f.scope(event.data);
      if (scope !== null) wanted.push({ scope, members: f.members?.(event.data) });
    }
  }
  return wanted;
}

/** An event's sealed texts by key id, as its envelopes hold them. */
type SealedTexts = Map<string, Record<string, string>>;

/**
 * The event with its sealed fields back in clear (or as their erased markers): one open per
 * envelope, or none when its texts are known (`known`: this process sealed it).
 */
function openEvent(event: RecordedEvent, fields: SealedField[], keys: Map<string, Buffer | typeof CONTENT_KEY_GONE> | undefined, known?: SealedTexts): RecordedEvent {
  const envelopes = envelopesOf(event.data);
  if (!envelopes) return event;
  const { [ENVELOPES]: _envelopes, ...rest } = event.data as Record<string, unknown>;
  const data = withValuesAt(rest);
  // Per key id: the texts of its envelope, or null when its key was destroyed.
  const opened = new Map<string, Record<string, unknown> | null>();
  for (const f of fields) {
    const value = valueAt(rest, f.path);
    if (!isSealedValue(value)) continue;
    const keyId = value.$sealed;
    let texts = opened.get(keyId);
    if (texts === undefined) {
      const envelope = envelopes[keyId];
      if (typeof envelope !== 'string') throw new Error(`${event.type} ${event.id}: ${f.path} is sealed under ${keyId}, which has no envelope in the event`);
      texts = known?.get(keyId);
      if (texts === undefined) {
        const key = keys!.get(keyId)!;
        texts = key === CONTENT_KEY_GONE ? null : (JSON.parse(unseal(key, aadOf(keyId, event.type), envelope)) as Record<string, unknown>);
      }
      opened.set(keyId, texts);
    }
    const text = texts === null ? f.erased : texts[f.path];
    if (typeof text !== 'string') throw new Error(`${event.type} ${event.id}: ${f.path} is not in the envelope of ${keyId}`);
    data.set(f.path, text);
  }
  return { ...event, data: data.result };
}

/**
 * The event with the texts its decision names sealed: each field replaced by `{ "$sealed": keyId }`,
 * the texts under one key sealed together into `data.$sealed[keyId]`. An event that already has
 * envelopes is left as it is.
 */
function sealEvent<E extends { type: string; data: object }>(event: E, keys: Map<string, ContentKey>, sealedTexts?: (texts: SealedTexts) => void): E {
  const fields = sealDecision(event.type);
  if (!fields || envelopesOf(event.data)) return event;
  const groups = new Map<string, { key: Buffer; texts: Record<string, string> }>();
  const data = withValuesAt(event.data);
  for (const f of fields) {
    const value = valueAt(event.data, f.path);
    if (typeof value !== 'string') continue;
    const scope = f.scope(event.data);
    if (scope === null) continue;
    const { keyId, key } = keys.get(scope)!;
    let group = groups.get(keyId);
    if (!group) groups.set(keyId, (group = { key, texts: {} }));
    group.texts[f.path] = value;
    data.set(f.path, { $sealed: keyId });
  }
  if (groups.size === 0) return event;
  const envelopes: Envelopes = {};
  for (const [keyId, { key, texts }] of groups) envelopes[keyId] = seal(key, aadOf(keyId, event.type), JSON.stringify(texts));
  sealedTexts?.(new Map([...groups].map(([keyId, { texts }]) => [keyId, texts])));
  data.set(ENVELOPES, envelopes);
  return { ...event, data: data.result };
}

/**
 * The event store with message texts sealed (docs/security.md, "How erasure works"): on append,
 * the fields CONTENT_PROTECTION names are sealed with their message's or topic's key (each field
 * replaced by `{ "$sealed": keyId }`, the texts of one key sealed together into one envelope,
 * `data.$sealed[keyId]`); on every read they are opened again, and a field whose key was
 * destroyed reads as its erased marker. Everything above it (deciders, projections, rebuilds,
 * history, upcasters) sees plain text; `raw` (exports, imports, backups) moves the sealed form.
 *
 * It also does the erasure's bookkeeping after an append: a `MessageDeleted` schedules its
 * message's key for destruction after the vacuuming delay, and its topic's key when the topic has
 * no message left; with no delay the keys are destroyed at once.
 */
export class ProtectingEventStore implements EventStorePort {
  /** rawEventStore looks through it. */
  readonly wrapsEvents = true;
  private pendingPurge: ReturnType<typeof setTimeout> | undefined;
  /**
   * Opened payloads by event id: every subscriber of the log (projector, client events, mail,
   * scheduled deliveries) reads each new event, and opening it once serves them all. Emptied by
   * this process's purge, like the keys.
   */
  private readonly openedData = new BoundedCache<string, object>(OPENED_EVENTS_KEPT / 2);
  /**
   * The texts of the events this process sealed, by event id, once their append succeeded: the
   * log's subscribers in this process (projector, client events, mail) read each new event back,
   * and need not open what was sealed a moment ago. Bounded and emptied by the purge, like
   * openedData.
   */
  private readonly sealedTexts = new BoundedCache<string, SealedTexts>(OPENED_EVENTS_KEPT / 2);

  constructor(
    readonly raw: EventStorePort,
    readonly keys: ContentKeys,
    private readonly settings: ErasureSettings,
  ) {}

  async appendToStream(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const texts: [string, SealedTexts][] = [];
    const result = await this.raw.appendToStream(streamId, await this.sealed(events, (id, t) => texts.push([id, t])), options);
    this.rememberSealed(texts);
    await this.afterAppend(events);
    return result;
  }

  /**
   * The events as the log keeps them: the message texts sealed (keys created as needed, topic
   * members recorded). Fields already sealed stay as they are. Also what the migration of a log
   * written before the sealing writes in place of the old rows.
   */
  async sealed<E extends { type: string; data: object; id?: string }>(events: E[], sealedTexts?: (eventId: string, texts: SealedTexts) => void): Promise<E[]> {
    const wanted = wantedScopes(events);
    if (wanted.length === 0) return events;
    const keys = await this.keys.keysFor(wanted);
    return events.map((e) => sealEvent(e, keys, sealedTexts && e.id !== undefined ? (texts) => sealedTexts(e.id!, texts) : undefined));
  }

  /**
   * The erasure's bookkeeping of events already in the log (the migration of an older log):
   * each deletion schedules its keys as a new one does; nothing is destroyed here (`purge` does).
   */
  async recordDeletions(events: readonly { type: string; data: any }[]): Promise<void> {
    await this.scheduleDeletions(events, false);
  }

  /** The raw store's, sealing inside the append (the key store answering synchronously); else undefined and callers take ids first. */
  get appendWithNextId(): EventStorePort['appendWithNextId'] {
    const raw = this.raw;
    if (!raw.appendWithNextId || !this.keys.canCreateNow) return undefined;
    return async (sequence, build) => {
      let built: EventToAppend[] = [];
      let texts: [string, SealedTexts][] = [];
      const result = await raw.appendWithNextId!(sequence, (id) => {
        const append = build(id);
        built = append.events;
        texts = [];
        const wanted = wantedScopes(append.events);
        if (wanted.length === 0) return append;
        const keys = this.keys.keysForNow(wanted);
        return { streamId: append.streamId, events: append.events.map((e) => sealEvent(e, keys, (t) => texts.push([e.id, t]))) };
      });
      this.rememberSealed(texts);
      await this.afterAppend(built);
      return result;
    };
  }

  async readStream(streamId: string, options?: { fromRevision?: StreamRevision; maxCount?: number }): Promise<ReadStreamResult> {
    const result = await this.raw.readStream(streamId, options);
    return { ...result, events: await this.open(result.events) };
  }

  async readAll(options: { after?: GlobalPosition; maxCount: number }): Promise<RecordedEvent[]> {
    return this.open(await this.raw.readAll(options));
  }

  headPosition(): Promise<GlobalPosition | undefined> {
    return this.raw.headPosition();
  }

  get countEvents(): EventStorePort['countEvents'] {
    const raw = this.raw;
    return raw.countEvents ? (options) => raw.countEvents!(options) : undefined;
  }

  subscribeToAll(options: { after?: GlobalPosition; batchSize?: number }, handler: AllSubscriptionHandler): AllSubscription {
    return this.raw.subscribeToAll(options, async (events) => handler(await this.open(events)));
  }

  health(): Promise<{ ok: boolean; detail?: string }> {
    return this.raw.health();
  }

  close(): Promise<void> {
    clearTimeout(this.pendingPurge);
    return this.raw.close();
  }

  /** Destroys the keys whose time has come, in bounded batches; answers how many. */
  async purge(now: Date = this.settings.now(), batch = PURGE_BATCH): Promise<number> {
    let total = 0;
    for (;;) {
      const destroyed = await this.keys.destroyDue(now, batch);
      total += destroyed;
      // What was opened with a destroyed key is forgotten with it.
      if (destroyed > 0) {
        this.openedData.clear();
        this.sealedTexts.clear();
      }
      if (destroyed < batch) return total;
    }
  }

  /** Events as stored → events in plain text (the same objects when nothing is sealed). */
  async open(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    let keyIds: string[] | undefined;
    for (const event of events) {
      const envelopes = sealDecision(event.type) && envelopesOf(event.data);
      if (envelopes) for (const keyId in envelopes) (keyIds ??= []).push(keyId);
    }
    if (!keyIds) return events;
    const opened = [...events];
    let keys: Map<string, Buffer | typeof CONTENT_KEY_GONE> | undefined;
    for (let i = 0; i < events.length; i++) {
      const fields = sealDecision(events[i].type);
      if (!fields) continue;
      const known = this.openedData.get(events[i].id);
      if (known) {
        opened[i] = { ...events[i], data: known };
        continue;
      }
      const sealedHere = this.sealedTexts.get(events[i].id);
      if (!sealedHere) keys ??= await this.keys.resolve(keyIds);
      opened[i] = openEvent(events[i], fields, keys, sealedHere);
      if (opened[i] !== events[i]) this.rememberOpened(events[i].id, opened[i].data);
    }
    return opened;
  }

  /** After an append: deletions schedule (or, without delay, do) their keys' destruction. */
  private async afterAppend(events: readonly { type: string; data: any }[]): Promise<void> {
    try {
      await this.scheduleDeletions(events, true);
    } catch (error) {
      this.settings.onError?.(error);
    }
  }

  private async scheduleDeletions(events: readonly { type: string; data: any }[], destroyWithoutDelay: boolean): Promise<void> {
    const deleted = events.filter((e) => e.type === 'MessageDeleted');
    if (deleted.length === 0) return;
    const delayMs = this.settings.vacuumingDelayDays * 86_400_000;
    // Without a delay, a topic's key waits a moment longer than its message's: the fan-out of
    // the deletion (the client events' `delete_message`, read from the log) still needs its name.
    const topicDelayMs = Math.max(delayMs, TOPIC_GRACE_MS);
    for (const { data } of deleted) {
      const deletedAt = Date.parse(data.at);
      await this.keys.scheduleMessageErasure(data.messageId, new Date(deletedAt + delayMs));
      // A topic's name goes when its last member goes: the topics the message was moved into or
      // out of (or, in a log sealed before, sent to), and its own topic, whose key seals this
      // deletion's copy of the name. The purge spares a key whose topic still has members.
      const topics = new Set(await this.keys.store.releaseMessage(data.messageId));
      if (data.streamId != null && typeof data.topic === 'string') topics.add(this.keys.storedScope(topicScope(data.realmId, data.streamId, data.topic)));
      for (const scope of topics) await this.keys.store.scheduleDestroy(scope, new Date(deletedAt + topicDelayMs));
    }
    if (delayMs === 0 && destroyWithoutDelay) {
      await this.purge(this.settings.now());
      this.purgeSoon(TOPIC_GRACE_MS);
    }
  }

  private rememberSealed(texts: [string, SealedTexts][]): void {
    for (const [id, t] of texts) this.sealedTexts.set(id, t);
  }

  private rememberOpened(id: string, data: object): void {
    this.openedData.set(id, data);
  }

  private purgeSoon(ms: number): void {
    if (this.pendingPurge) return;
    this.pendingPurge = setTimeout(() => {
      this.pendingPurge = undefined;
      this.purge(this.settings.now()).catch((error: unknown) => this.settings.onError?.(error));
    }, ms + 1000);
    this.pendingPurge.unref?.();
  }
}
