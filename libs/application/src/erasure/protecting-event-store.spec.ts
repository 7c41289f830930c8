import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppendResult, EventStorePort, EventToAppend, RecordedEvent } from '../ports/event-store.port';
import { type BatchPuncturer, CONTENT_KEY_GONE, type ContentKeyRequest, type ContentKeyStorePort, type StoredContentKey } from '../ports/content-key-store.port';
import { ContentKeys, deriveMessageKey } from './content-keys';
import { CONTENT_PROTECTION, ERASED, isSealedValue, withValuesAt } from './content-protection';
import { ProtectingEventStore } from './protecting-event-store';
import { ContentKeyMissingError } from './content-key-missing-error';
import { unseal } from '../shared/sealing';
import { checkSealedLog } from './sealed-log-check';

/** The smallest event store: one list, streams by filter. */
class ListEventStore implements EventStorePort {
  readonly events: RecordedEvent[] = [];
  async appendToStream(streamId: string, events: EventToAppend[]): Promise<AppendResult> {
    for (const e of events) {
      const revision = BigInt(this.events.filter((x) => x.streamId === streamId).length);
      this.events.push({ ...e, streamId, revision, position: BigInt(this.events.length + 1), recordedAt: '2026-01-01T00:00:00.000Z' });
    }
    return { nextExpectedRevision: 0n, position: BigInt(this.events.length) };
  }
  async readStream(streamId: string) {
    return { events: this.events.filter((e) => e.streamId === streamId), revision: 0n };
  }
  async readAll(options: { after?: bigint; maxCount: number }) {
    this.pagesRead++;
    return this.events.filter((e) => options.after === undefined || e.position > options.after).slice(0, options.maxCount);
  }
  async readAllBackwards(options: { before?: bigint; maxCount: number }) {
    this.pagesRead++;
    return this.events.filter((e) => options.before === undefined || e.position < options.before).reverse().slice(0, options.maxCount);
  }
  pagesRead = 0;
  async headPosition() {
    return this.events.length > 0 ? BigInt(this.events.length) : undefined;
  }
  subscribeToAll(): never {
    throw new Error('not used');
  }
  async health() {
    return { ok: true };
  }
  async close() {}
}

/** The key store's contract in memory (the adapters' own suite is test/contract/content-key-store.contract-spec.ts). */
class MemoryKeyStore implements ContentKeyStorePort {
  readonly keys = new Map<string, StoredContentKey & { destroyAt?: number }>();
  readonly gone = new Set<string>();
  readonly punctures = new Map<number, { batchScope: string; at: number }>();
  readonly members = new Map<string, Set<number>>();
  writes = 0;
  getOrCreateNow(requests: ContentKeyRequest[]): StoredContentKey[] {
    this.writes++;
    return requests.map(({ scope, candidate, members }) => {
      for (const id of members ?? []) (this.members.get(scope) ?? this.members.set(scope, new Set()).get(scope)!).add(id);
      const found = [...this.keys.values()].find((k) => k.scope === scope);
      if (found) return { keyId: found.keyId, scope, wrapped: found.wrapped };
      const created = candidate();
      this.keys.set(created.keyId, { ...created, scope });
      return { ...created, scope };
    });
  }
  async getOrCreate(requests: ContentKeyRequest[]) {
    return this.getOrCreateNow(requests);
  }
  async get(keyId: string) {
    const key = this.keys.get(keyId);
    return key ? { keyId, scope: key.scope, wrapped: key.wrapped } : this.gone.has(keyId) ? CONTENT_KEY_GONE : null;
  }
  async scheduleDestroy(scope: string, at: Date) {
    for (const key of this.keys.values()) if (key.scope === scope) key.destroyAt = Math.min(key.destroyAt ?? Infinity, at.getTime());
  }
  async schedulePuncture(messageId: number, batchScope: string, at: Date) {
    this.punctures.set(messageId, { batchScope, at: Math.min(this.punctures.get(messageId)?.at ?? Infinity, at.getTime()) });
  }
  private destroy(keyId: string) {
    this.keys.delete(keyId);
    this.gone.add(keyId);
  }
  async destroyDue(now: Date, limit: number, puncture: BatchPuncturer) {
    let n = 0;
    for (const [, { batchScope, at }] of [...this.punctures].sort((a, b) => a[1].at - b[1].at)) {
      if (n >= limit || at > now.getTime()) break;
      const due = new Set([...this.punctures].filter(([, p]) => p.batchScope === batchScope && p.at <= now.getTime()).map(([id]) => id));
      if (due.size === 0) continue;
      const live = [...this.keys.values()].find((k) => k.scope === batchScope);
      if (live) {
        const rest = puncture({ keyId: live.keyId, scope: live.scope, wrapped: live.wrapped }, due);
        if (rest === null) this.destroy(live.keyId);
        else live.wrapped = rest;
      }
      for (const id of due) this.punctures.delete(id);
      n += due.size;
    }
    for (const key of [...this.keys.values()]) {
      if (n >= limit || key.destroyAt === undefined || key.destroyAt > now.getTime()) continue;
      if (this.members.get(key.scope)?.size) {
        key.destroyAt = undefined;
        continue;
      }
      this.keys.delete(key.keyId);
      this.gone.add(key.keyId);
      n++;
    }
    return n;
  }
  async releaseMessage(messageId: number) {
    const emptied: string[] = [];
    for (const [scope, ids] of this.members) if (ids.delete(messageId) && ids.size === 0) emptied.push(scope);
    return emptied;
  }
  async mark() {
    return null;
  }
  async setMark() {}
  async close() {}
}

const at = '2026-01-01T00:00:00.000Z';
const sent = (messageId: number, topic: string | null, content = `secret text ${messageId}`) => ({
  id: `e-sent-${messageId}`,
  type: 'MessageSent',
  metadata: { schemaVersion: 1 },
  data: {
    realmId: 1, messageId, senderId: 10,
    recipient: topic === null ? { type: 'direct', participantIds: [10, 11] } : { type: 'stream', streamId: 5, streamName: 'general', topic },
    content, renderedContent: `<p>${content}</p>`, client: 'test', at,
    widget: { submessageId: 1, senderId: 10, msgType: 'widget', content: '{"widget_type":"poll"}' },
  },
});
const deleted = (messageId: number, topic: string | null, when = at) => ({
  id: `e-del-${messageId}`,
  type: 'MessageDeleted',
  metadata: { schemaVersion: 1 },
  data: { realmId: 1, messageId, senderId: 10, messageType: topic === null ? 'private' : 'stream', streamId: topic === null ? null : 5, topic, actorId: 10, at: when },
});
const moved = (messageIds: number[], origTopic: string, topic: string) => ({
  id: `e-move-${messageIds.join('-')}`,
  type: 'MessagesMoved',
  metadata: { schemaVersion: 1 },
  data: {
    realmId: 1, targetMessageId: messageIds[0], messageIds, propagateMode: 'change_all', origStreamId: 5, origTopic, streamId: 5, streamName: 'general', topic,
    resolution: null, userIdsLosingRows: [], userIdsGainingRows: [], editorId: 10, at,
  },
});
const reaction = (messageId: number) => ({
  id: `e-react-${messageId}`,
  type: 'ReactionAdded',
  metadata: { schemaVersion: 1 },
  data: { realmId: 1, messageId, userId: 11, emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji', historical: false, at },
});

function setup(delayDays = 30) {
  const raw = new ListEventStore();
  const keyStore = new MemoryKeyStore();
  let now = new Date(at);
  const store = new ProtectingEventStore(raw, new ContentKeys(keyStore, randomBytes(32)), { vacuumingDelayDays: delayDays, now: () => now });
  return { raw, keyStore, store, setNow: (iso: string) => (now = new Date(iso)) };
}

/** Another process on the same log and key store (it opens every envelope: it sealed none of them). */
const readerOf = ({ raw, keyStore, store }: ReturnType<typeof setup>) =>
  new ProtectingEventStore(raw, new ContentKeys(keyStore, (store.keys as unknown as { kek: Buffer }).kek), { vacuumingDelayDays: 30, now: () => new Date(at) });

describe('ProtectingEventStore', () => {
  it('stores message texts sealed and reads them back in clear, by stream and from the global log', async () => {
    const { raw, store } = setup();
    await store.appendToStream('message-1', [sent(1, 'lunch plans')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-1', [reaction(1)], { expectedRevision: 0n });
    const stored = JSON.stringify(raw.events.map((e) => e.data));
    for (const text of ['secret text 1', 'lunch plans', 'octopus', '1f419', 'poll']) expect(stored).not.toContain(text);
    expect(isSealedValue(raw.events[0].data.content)).toBe(true);
    expect(isSealedValue(raw.events[0].data.recipient.topic)).toBe(true);
    // Fields that are not text stay as they were.
    expect(raw.events[0].data.recipient.streamId).toBe(5);
    const [message, react] = (await store.readStream('message-1')).events;
    expect(message.data).toEqual(sent(1, 'lunch plans').data);
    expect(react.data).toEqual(reaction(1).data);
    expect((await store.readAll({ maxCount: 10 })).map((e) => e.data)).toEqual([sent(1, 'lunch plans').data, reaction(1).data]);
  });

  it('seals a message\'s texts and its copy of the topic with its own key, a direct message without a topic; a move\'s topics with each topic\'s key (case-insensitively)', async () => {
    const { raw, keyStore, store } = setup();
    await store.appendToStream('message-1', [sent(1, 'Lunch')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-2', [sent(2, 'lunch')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-3', [sent(3, null)], { expectedRevision: 'no_stream' });
    await store.appendToStream('moves', [moved([1], 'Lunch', 'dinner')], { expectedRevision: 'no_stream' });
    await store.appendToStream('moves', [moved([2], 'lunch', 'Dinner')], { expectedRevision: 0n });
    const [a, b, c, move1, move2] = raw.events.map((e) => e.data);
    expect(a.content.$sealed).not.toBe(b.content.$sealed);
    expect(a.recipient.topic.$sealed).toBe(a.content.$sealed);
    expect(b.recipient.topic.$sealed).toBe(b.content.$sealed);
    expect(c.recipient).toEqual({ type: 'direct', participantIds: [10, 11] });
    expect(move1.origTopic.$sealed).toBe(move2.origTopic.$sealed);
    expect(move1.topic.$sealed).toBe(move2.topic.$sealed);
    expect(move1.origTopic.$sealed).not.toBe(move1.topic.$sealed);
    // The moved messages are members of both topics; a send makes no member.
    expect([...keyStore.members.values()].map((ids) => [...ids].sort())).toEqual([[1, 2], [1, 2]]);
    expect((await store.readStream('moves')).events.map((e) => [e.data.origTopic, e.data.topic])).toEqual([['Lunch', 'dinner'], ['lunch', 'Dinner']]);
  });

  it('seals the texts under one key together: one envelope per key and event, the fields referring to it', async () => {
    const { raw, store } = setup();
    await store.appendToStream('message-1', [sent(1, 'lunch')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-2', [sent(2, null)], { expectedRevision: 'no_stream' });
    const [channel, direct] = raw.events.map((e) => e.data);
    const messageKey = channel.content.$sealed;
    expect(channel.content).toEqual({ $sealed: messageKey });
    expect(channel.renderedContent).toEqual({ $sealed: messageKey });
    expect(channel.widget.content).toEqual({ $sealed: messageKey });
    expect(channel.recipient.topic).toEqual({ $sealed: messageKey });
    expect(Object.keys(channel.$sealed)).toEqual([messageKey]);
    expect(Object.keys(direct.$sealed)).toEqual([direct.content.$sealed]);
    expect((await store.readStream('message-2')).events[0].data).toEqual(sent(2, null).data);
  });

  it('an envelope moved onto another event, or a field pointed at an envelope that does not hold it, does not open', async () => {
    const copied = setup();
    await copied.store.appendToStream('message-1', [sent(1, 'x'), reaction(1)], { expectedRevision: 'no_stream' });
    // The reaction is sealed under the message's key too: the message's envelope in its place is refused (another event type).
    copied.raw.events[1].data.$sealed = copied.raw.events[0].data.$sealed;
    await expect(readerOf(copied).readStream('message-1')).rejects.toThrow();
    const pointed = setup();
    await pointed.store.appendToStream('moves', [moved([1], 'from', 'to')], { expectedRevision: 'no_stream' });
    pointed.raw.events[0].data.origTopic = pointed.raw.events[0].data.topic;
    await expect(readerOf(pointed).readStream('moves')).rejects.toThrow(/origTopic is not in the envelope/);
  });

  it('with the default delay a deleted message stays readable until its time, then reads as the erased markers', async () => {
    const { store, setNow } = setup(30);
    await store.appendToStream('message-1', [sent(1, 'only topic')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-1', [reaction(1), deleted(1, 'only topic')], { expectedRevision: 0n });
    expect((await store.readStream('message-1')).events[0].data.content).toBe('secret text 1');
    expect(await store.purge(new Date('2026-01-30T23:59:59Z'))).toBe(0);
    expect((await store.readStream('message-1')).events[0].data.content).toBe('secret text 1');
    setNow('2026-01-31T00:00:00Z');
    expect(await store.purge()).toBe(2);
    const [message, react, deletion] = (await store.readStream('message-1')).events.map((e) => e.data);
    expect(message).toMatchObject({ content: ERASED.content, renderedContent: ERASED.rendering, recipient: { topic: ERASED.topic }, widget: { content: ERASED.json } });
    expect(react).toMatchObject({ emojiName: ERASED.emoji, emojiCode: ERASED.emoji });
    expect(deletion.topic).toBe(ERASED.topic);
  });

  it('with no delay a message\'s key goes at once, its copy of the topic with it; the key of the deletion\'s copy a minute later', async () => {
    const { store, setNow } = setup(0);
    await store.appendToStream('message-1', [sent(1, 'shared')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-2', [sent(2, 'shared')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-1', [deleted(1, 'shared')], { expectedRevision: 0n });
    const [first, deletion] = (await store.readStream('message-1')).events.map((e) => e.data);
    expect(first).toMatchObject({ content: ERASED.content, recipient: { topic: ERASED.topic } });
    // The deletion's fan-out (read from the log after the append) still names the topic.
    expect(deletion.topic).toBe('shared');
    expect((await store.readStream('message-2')).events[0].data).toMatchObject({ content: 'secret text 2', recipient: { topic: 'shared' } });
    setNow('2026-01-01T00:01:01Z');
    expect(await store.purge()).toBe(1);
    expect((await store.readStream('message-1')).events[1].data.topic).toBe(ERASED.topic);
    // The other message of the topic keeps its copy, under its own key.
    expect((await store.readStream('message-2')).events[0].data.recipient.topic).toBe('shared');
    // A later deletion in the topic seals its copy under a new key.
    await store.appendToStream('message-2', [deleted(2, 'shared', '2026-01-01T00:01:01Z')], { expectedRevision: 0n });
    expect((await store.readStream('message-2')).events[1].data.topic).toBe('shared');
    await store.close();
  });

  it('keeps a topic\'s key while a message moved into or out of it remains: the move names both topics', async () => {
    const { store, setNow } = setup(0);
    await store.appendToStream('message-1', [sent(1, 'old')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-2', [sent(2, 'old')], { expectedRevision: 'no_stream' });
    await store.appendToStream('moves', [moved([1], 'old', 'new')], { expectedRevision: 'no_stream' });
    // A message deleted from the old topic: its deletion's key is the old topic's, which the moved message keeps.
    await store.appendToStream('message-2', [deleted(2, 'old')], { expectedRevision: 0n });
    setNow('2026-01-01T00:05:00Z');
    expect(await store.purge()).toBe(0);
    expect((await store.readStream('moves')).events[0].data).toMatchObject({ origTopic: 'old', topic: 'new' });
    expect((await store.readStream('message-2')).events[1].data.topic).toBe('old');
    // The moved message goes: both topics have no member left, and their keys go a minute later.
    await store.appendToStream('message-1', [deleted(1, 'new', '2026-01-01T00:05:00Z')], { expectedRevision: 0n });
    setNow('2026-01-01T00:06:01Z');
    expect(await store.purge()).toBe(2);
    expect((await store.readStream('moves')).events[0].data).toMatchObject({ origTopic: ERASED.topic, topic: ERASED.topic });
    expect((await store.readStream('message-2')).events[1].data.topic).toBe(ERASED.topic);
    await store.close();
  });

  it('seals inside an id-taking append, with one key-store write for a first message', async () => {
    const raw = new ListEventStore();
    (raw as EventStorePort).appendWithNextId = async (sequence, build) => {
      const { streamId, events } = build(42);
      return { id: 42, ...(await raw.appendToStream(streamId, events)) };
    };
    const keyStore = new MemoryKeyStore();
    const store = new ProtectingEventStore(raw, new ContentKeys(keyStore, randomBytes(32)), { vacuumingDelayDays: 30, now: () => new Date(at) });
    await store.appendWithNextId!('message', (id) => ({ streamId: `message-${id}`, events: [sent(id, 'topic')] }));
    expect(keyStore.writes).toBe(1);
    expect(JSON.stringify(raw.events.map((e) => e.data))).not.toContain('secret text 42');
    expect((await store.readStream('message-42')).events[0].data.content).toBe('secret text 42');
  });

  it('derives each message\'s key from its batch\'s: one key-store write per 256 messages, which a cold process and another writer use', async () => {
    const { raw, keyStore, store } = setup();
    for (let id = 1; id <= 300; id++) await store.appendToStream(`message-${id}`, [sent(id, null)], { expectedRevision: 'no_stream' });
    expect(keyStore.writes).toBe(2);
    expect([...keyStore.keys.values()].map((k) => k.scope).sort()).toEqual(['messages:0-255', 'messages:256-511']);
    const keyIds = raw.events.map((e) => e.data.content.$sealed as string);
    expect(new Set(keyIds).size).toBe(300);
    const batchOf = new Map([...keyStore.keys.values()].map((k) => [k.scope, k.keyId]));
    expect(keyIds[0]).toBe(`${batchOf.get('messages:0-255')}/1`);
    expect(keyIds[299]).toBe(`${batchOf.get('messages:256-511')}/300`);
    expect(JSON.stringify(raw.events.map((e) => e.data))).not.toContain('secret text');
    const kek = (store.keys as unknown as { kek: Buffer }).kek;
    const cold = new ProtectingEventStore(raw, new ContentKeys(keyStore, kek), { vacuumingDelayDays: 30, now: () => new Date(at) });
    expect((await cold.readAll({ maxCount: 1000 })).map((e) => e.data.content)).toEqual(Array.from({ length: 300 }, (_, i) => `secret text ${i + 1}`));
    // Another process taking id 301 uses the stored batch key.
    await cold.appendToStream('message-301', [sent(301, null)], { expectedRevision: 'no_stream' });
    expect(raw.events[300].data.content.$sealed).toBe(`${batchOf.get('messages:256-511')}/301`);
    expect(keyStore.keys.size).toBe(2);
    expect((await store.readStream('message-301')).events[0].data.content).toBe('secret text 301');
  });

  it('erasing a message punctures its batch: its texts read as erased everywhere, its neighbours\' still open, in this process and a cold one', async () => {
    const { raw, keyStore, store, setNow } = setup(30);
    const kek = (store.keys as unknown as { kek: Buffer }).kek;
    for (let id = 1; id <= 5; id++) await store.appendToStream(`message-${id}`, [sent(id, null)], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-3', [deleted(3, null, '2026-01-02T00:00:00.000Z')], { expectedRevision: 0n });
    // Within the vacuuming delay nothing is destroyed.
    expect(await store.purge(new Date('2026-01-31T00:00:00.000Z'))).toBe(0);
    const batch = { ...[...keyStore.keys.values()].find((k) => k.scope === 'messages:0-255')! };
    const batchKey = Buffer.from(unseal(kek, `content_key:${batch.keyId}`, batch.wrapped), 'base64');
    setNow('2026-02-01T00:00:00.000Z');
    expect(await store.purge()).toBe(1);
    // The row keeps its id and now holds the other 255 messages' keys (each as derived before), not the batch key, and nothing for message 3.
    const row = keyStore.keys.get(batch.keyId)!;
    expect(row.wrapped).not.toBe(batch.wrapped);
    expect(keyStore.keys.size).toBe(1);
    const clear = unseal(kek, `content_key:${batch.keyId}`, row.wrapped);
    expect(clear.startsWith('survivors:')).toBe(true);
    const survivors = JSON.parse(clear.slice('survivors:'.length)) as Record<string, string>;
    expect(Object.keys(survivors)).toHaveLength(255);
    expect(survivors['3']).toBeUndefined();
    expect(survivors['4']).toBe(deriveMessageKey(batchKey, 4).toString('base64'));
    expect(clear).not.toContain(batchKey.toString('base64'));
    const cold = new ProtectingEventStore(raw, new ContentKeys(keyStore, kek), { vacuumingDelayDays: 30, now: () => new Date(at) });
    for (const reader of [store, cold]) {
      const contents = (await reader.readAll({ maxCount: 100 })).filter((e) => e.type === 'MessageSent').map((e) => e.data.content);
      expect(contents).toEqual(['secret text 1', 'secret text 2', ERASED.content, 'secret text 4', 'secret text 5']);
    }
    // The next message of the batch takes its key from the survivors, under the same batch key id; erasing a survivor rewrites the row without it.
    await cold.appendToStream('message-6', [sent(6, null)], { expectedRevision: 'no_stream' });
    expect(raw.events.at(-1)!.data.content.$sealed).toBe(`${batch.keyId}/6`);
    await store.appendToStream('message-4', [deleted(4, null, '2026-02-01T00:00:00.000Z')], { expectedRevision: 0n });
    setNow('2026-03-05T00:00:00.000Z');
    expect(await store.purge()).toBe(1);
    const fresh = new ProtectingEventStore(raw, new ContentKeys(keyStore, kek), { vacuumingDelayDays: 30, now: () => new Date(at) });
    const contents = (await fresh.readAll({ maxCount: 100 })).filter((e) => e.type === 'MessageSent').map((e) => e.data.content);
    expect(contents).toEqual(['secret text 1', 'secret text 2', ERASED.content, ERASED.content, 'secret text 5', 'secret text 6']);
    expect(Object.keys(JSON.parse(unseal(kek, `content_key:${batch.keyId}`, keyStore.keys.get(batch.keyId)!.wrapped).slice('survivors:'.length)))).toHaveLength(254);
  });

  it('a batch all of whose messages are erased leaves nothing: its row is destroyed', async () => {
    const { raw, keyStore, store } = setup(0);
    await store.appendToStream('message-300', [sent(300, null)], { expectedRevision: 'no_stream' });
    const batch = [...keyStore.keys.values()].find((k) => k.scope === 'messages:256-511')!;
    for (let id = 256; id <= 511; id++) await store.keys.scheduleMessageErasure(id, new Date('2000-01-01T00:00:00.000Z'));
    expect(await store.purge(new Date(at))).toBe(256);
    expect(keyStore.keys.has(batch.keyId)).toBe(false);
    expect(keyStore.gone.has(batch.keyId)).toBe(true);
    const kek = (store.keys as unknown as { kek: Buffer }).kek;
    const cold = new ProtectingEventStore(raw, new ContentKeys(keyStore, kek), { vacuumingDelayDays: 30, now: () => new Date(at) });
    expect((await cold.readStream('message-300')).events[0].data.content).toBe(ERASED.content);
  });

  it('reads back what this process sealed without opening its envelope, until a purge; another process opens it', async () => {
    const { raw, keyStore, store, setNow } = setup(0);
    await store.appendToStream('message-1', [sent(1, 'topic')], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-2', [sent(2, 'topic')], { expectedRevision: 'no_stream' });
    // The envelope in the log no longer opens (a test's stand-in for "was not opened")...
    const envelopes = raw.events[0].data.$sealed as Record<string, string>;
    const keyId = Object.keys(envelopes)[0];
    envelopes[keyId] = raw.events[1].data.$sealed[raw.events[1].data.content.$sealed];
    // ...yet this process reads the texts it sealed.
    expect((await store.readStream('message-1')).events[0].data).toEqual(sent(1, 'topic').data);
    const kek = (store.keys as unknown as { kek: Buffer }).kek;
    const other = new ProtectingEventStore(raw, new ContentKeys(keyStore, kek), { vacuumingDelayDays: 0, now: () => new Date(at) });
    await expect(other.readStream('message-1')).rejects.toThrow();
    // A purge forgets them: deleting message 2 destroys its key, and message 1 is opened from the log again.
    setNow('2026-01-01T00:00:00Z');
    await store.appendToStream('message-2', [deleted(2, 'topic')], { expectedRevision: 0n });
    await expect(store.readStream('message-1')).rejects.toThrow();
  });

  it('leaves events written before the sealing (plain text) as they are', async () => {
    const { raw, store } = setup();
    await raw.appendToStream('message-7', [sent(7, 'old')]);
    expect((await store.readStream('message-7')).events[0].data).toEqual(sent(7, 'old').data);
  });

  it('refuses to read a key id its key store never had (a log written with another key store) instead of calling it erased', async () => {
    const { raw, store } = setup();
    await raw.appendToStream('message-8', [{ ...sent(8, 'x'), data: { ...sent(8, 'x').data, content: { $sealed: 'elsewhere' }, $sealed: { elsewhere: 'v1:AAAA' } } }]);
    const read = store.readStream('message-8');
    await expect(read).rejects.toBeInstanceOf(ContentKeyMissingError);
    await expect(read).rejects.toMatchObject({ keyId: 'elsewhere', reason: 'missing', message: expect.stringMatching(/not in DATA_DIR\/content-keys\.sqlite.*restore content-keys\.sqlite and credentials\.key .* from the same backup as events\.sqlite/) });
  });

  it('refuses to read with a key-encryption key the keys were not wrapped with (GCM fails): ContentKeyMissingError, wrong-kek', async () => {
    const { raw, keyStore, store } = setup();
    await store.appendToStream('message-9', [sent(9, 'lunch')], { expectedRevision: 'no_stream' });
    const otherKek = new ProtectingEventStore(raw, new ContentKeys(keyStore, randomBytes(32)), { vacuumingDelayDays: 30, now: () => new Date(at) });
    await expect(otherKek.readStream('message-9')).rejects.toMatchObject({ name: 'ContentKeyMissingError', reason: 'wrong-kek', message: expect.stringContaining('credentials.key') });
  });
});

describe('checkSealedLog (the boot check)', () => {
  it('opens the oldest and the newest sealed event of the log, and passes when their keys open', async () => {
    const { raw, store } = setup();
    await raw.appendToStream('realm-1', [{ id: 'e-realm', type: 'RealmCreated', metadata: { schemaVersion: 1 }, data: { realmId: 1 } }]);
    for (let id = 1; id <= 3; id++) await store.appendToStream(`message-${id}`, [sent(id, 'lunch')], { expectedRevision: 'no_stream' });
    await raw.appendToStream('realm-1', [{ id: 'e-realm-2', type: 'RealmRenamed', metadata: { schemaVersion: 1 }, data: { realmId: 1 } }]);
    expect(await checkSealedLog(store)).toEqual({ opened: [2n, 4n] });
  });

  it('passes a log without sealed events, and one whose newest sealed message was erased (its key destroyed)', async () => {
    const empty = setup();
    expect(await checkSealedLog(empty.store)).toEqual({ opened: [] });
    const { store } = setup(0);
    // Direct messages: the deletion carries no topic, so the newest sealed event is message 2's, unreadable now.
    await store.appendToStream('message-1', [sent(1, null)], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-2', [sent(2, null)], { expectedRevision: 'no_stream' });
    await store.appendToStream('message-2', [deleted(2, null)], { expectedRevision: 0n });
    expect((await store.readStream('message-2')).events[0].data.content).toBe(ERASED.content);
    expect(await checkSealedLog(store)).toEqual({ opened: [1n, 2n] });
  });

  it.each([
    ['the oldest', 1],
    ['the newest', 3],
  ])('throws ContentKeyMissingError when the key of %s sealed event is not in the key store', async (_which, messageId) => {
    const { raw, keyStore, store } = setup();
    for (let id = 1; id <= 3; id++) await store.appendToStream(`message-${id}`, [sent(id, null)], { expectedRevision: 'no_stream' });
    // The message's key derives from its batch's, which is what goes missing.
    const keyId = (raw.events[messageId - 1].data.content as { $sealed: string }).$sealed.split('/')[0];
    keyStore.keys.delete(keyId);
    // A fresh process: nothing opened yet.
    const restarted = new ProtectingEventStore(raw, new ContentKeys(keyStore, (store.keys as unknown as { kek: Buffer }).kek), { vacuumingDelayDays: 30, now: () => new Date(at) });
    await expect(checkSealedLog(restarted)).rejects.toMatchObject({ name: 'ContentKeyMissingError', keyId, reason: 'missing' });
  });

  it('reads at most its scan from each end of the log', async () => {
    const { raw, store } = setup();
    for (let i = 0; i < 30; i++) await raw.appendToStream('realm-1', [{ id: `e-${i}`, type: 'RealmRenamed', metadata: { schemaVersion: 1 }, data: { realmId: 1 } }]);
    await store.appendToStream('message-1', [sent(1, null)], { expectedRevision: 'no_stream' });
    raw.pagesRead = 0;
    expect(await checkSealedLog(store, 10)).toEqual({ opened: [] });
    expect(raw.pagesRead).toBe(1);
  });
});

describe('CONTENT_PROTECTION', () => {
  /** Every event type declared in libs/domain whose payload names a field that holds message text. */
  function typesCarryingText(): string[] {
    const root = join(__dirname, '../../../domain/src');
    const found = new Set<string>();
    for (const area of readdirSync(root)) {
      let files: string[];
      try {
        files = readdirSync(join(root, area)).filter((f) => f.endsWith('.events.ts'));
      } catch {
        continue;
      }
      for (const file of files) {
        const text = readFileSync(join(root, area, file), 'utf8');
        const declarations = [...text.matchAll(/\btype: '([A-Z][A-Za-z]+)';/g)];
        declarations.forEach((match, i) => {
          const body = text.slice(match.index, declarations[i + 1]?.index ?? text.length);
          if (/\b(content|prevContent|renderedContent|prevRenderedContent|topic|origTopic|emojiName|emojiCode|widget)\??:|StoredReaction|StoredSubmessage|MessageRecipient|ScheduledMessageBody/.test(body)) found.add(match[1]);
        });
      }
    }
    return [...found].sort();
  }

  it('decides, for every event type that carries message text, which fields are sealed or why none is', () => {
    const carrying = typesCarryingText();
    expect(carrying).toEqual(expect.arrayContaining(['MessageSent', 'MessageContentEdited', 'MessagesMoved', 'ReactionAdded', 'SubmessageAdded']));
    expect(carrying.filter((type) => CONTENT_PROTECTION[type] === undefined)).toEqual([]);
  });
});

describe('withValuesAt', () => {
  it('writes several paths into one copy: each object on a path copied once, the rest shared, the input untouched', () => {
    const data = { a: 1, recipient: { type: 'stream', topic: 't', ids: [1] }, widget: { content: 'w', other: { deep: true } }, untouched: { x: 1 } };
    const frozen = JSON.stringify(data);
    const writer = withValuesAt(data);
    writer.set('recipient.topic', { $sealed: 'k' });
    writer.set('widget.content', { $sealed: 'k' });
    writer.set('content', 'c');
    const result = writer.result as typeof data & { content: string };
    expect(result).toEqual({ ...data, content: 'c', recipient: { ...data.recipient, topic: { $sealed: 'k' } }, widget: { ...data.widget, content: { $sealed: 'k' } } });
    expect(JSON.stringify(data)).toBe(frozen);
    expect(result.untouched).toBe(data.untouched);
    expect(result.recipient.ids).toBe(data.recipient.ids);
    expect(result.widget.other).toBe(data.widget.other);
    expect(result.recipient).not.toBe(data.recipient);
  });
});
