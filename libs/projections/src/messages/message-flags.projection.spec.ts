import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { RecordedEvent } from '@app/application';
import { CURRENT_SCHEMA_VERSION, type FlagSelection, MESSAGE_FLAG_BITS as F, type MessageFlagsChanged, messageFlagsStream } from '@app/domain';
import { openSqlite, SqliteEventStore, SqliteReadStore, SqliteUserMessageStore } from '@app/infrastructure';
import { directMessageSent, makeTempDir, messageSent } from '@app/testing';
import { ALL_PROJECTIONS } from '../all-projections';
import { Projector } from '../shared/projector';
import { USER_MESSAGE_EVENT_TYPES, USER_MESSAGES_PROJECTION, userMessageChanges, userMessagesProjection } from './user-messages.projection';

const AT = '2026-01-01T00:00:00.000Z';
const flagsChanged = (userId: number, flag: MessageFlagsChanged['data']['flag'], op: 'add' | 'remove', selection: FlagSelection): MessageFlagsChanged => ({
  type: 'MessageFlagsChanged',
  data: { realmId: 1, userId, flag, op, selection, at: AT },
});
const recorded = (event: MessageFlagsChanged): RecordedEvent =>
  ({ type: event.type, data: event.data, position: 1n, streamId: 's', revision: 0n, id: 'x', metadata: {}, recordedAt: AT }) as unknown as RecordedEvent;

describe('MessageFlagsChanged → per-user state changes (pure)', () => {
  it('is handled by the user-messages projection', () => expect(USER_MESSAGE_EVENT_TYPES).toContain('MessageFlagsChanged'));

  it('an id list becomes one flags change over those ids', () =>
    expect(userMessageChanges(recorded(flagsChanged(10, 'starred', 'add', { kind: 'ids', messageIds: [1, 3] })))).toEqual([
      { type: 'flags-changed', userId: 10, selector: { messageIds: [1, 3] }, op: 'add', mask: F.starred },
    ]));

  it('historical ids ride along as rows to create first (create_historical_user_messages)', () =>
    expect(userMessageChanges(recorded(flagsChanged(10, 'starred', 'add', { kind: 'ids', messageIds: [1, 3], historicalIds: [3] })))).toEqual([
      { type: 'flags-changed', userId: 10, selector: { messageIds: [1, 3], createHistorical: [3] }, op: 'add', mask: F.starred },
    ]));

  it('a channel, topic or "all" selection becomes one range change bounded by its message id', () => {
    expect(userMessageChanges(recorded(flagsChanged(10, 'read', 'add', { kind: 'channel', streamId: 5, topic: null, upToMessageId: 9 })))).toEqual([
      { type: 'flags-changed', userId: 10, selector: { streamId: 5, maxId: 9 }, op: 'add', mask: F.read },
    ]);
    expect(userMessageChanges(recorded(flagsChanged(10, 'read', 'add', { kind: 'channel', streamId: 5, topic: 'Greetings', upToMessageId: 9 })))[0]).toMatchObject({
      selector: { streamId: 5, topic: 'Greetings', maxId: 9 },
    });
    expect(userMessageChanges(recorded(flagsChanged(10, 'read', 'remove', { kind: 'all', upToMessageId: 9 })))).toEqual([
      { type: 'flags-changed', userId: 10, selector: { maxId: 9 }, op: 'remove', mask: F.read },
    ]);
  });
});

/** Flag changes through the real projector: applied in log order, idempotent, rebuilt by replay. */
describe('flag changes replayed by the projector (embedded)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let eventsDb: Database.Database;
  let readDb: Database.Database;
  let events: SqliteEventStore;
  let store: SqliteUserMessageStore;
  let readStore: SqliteReadStore;
  const logger = { info: () => undefined, error: () => undefined };
  const projector = () =>
    new Projector(events, readStore, ALL_PROJECTIONS, logger, { waitTimeoutMs: 5000, batchSize: 2, retryDelayMs: 10, bulkProjections: [userMessagesProjection(store)] });
  let n = 0;
  const append = async (stream: string, event: { type: string; data: object }) =>
    events.appendToStream(stream, [{ id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, type: event.type, data: event.data, metadata: { schemaVersion: CURRENT_SCHEMA_VERSION } }], { expectedRevision: 'any' });
  const run = async () => {
    const p = projector();
    await p.start();
    await p.catchUp(5000);
    await p.stop();
  };
  const state = async () => ({
    hamlet: Object.fromEntries(await store.flagsFor(10, [1, 2, 3, 4, 5])),
    cordelia: Object.fromEntries(await store.flagsFor(11, [1, 2, 3, 4, 5])),
    historical: Object.fromEntries(await store.flagsFor(12, [1, 2, 3, 4, 5])),
  });

  beforeEach(async () => {
    n = 0;
    dir = makeTempDir('message-flags-');
    eventsDb = openSqlite(join(dir.path, 'events.sqlite'));
    readDb = openSqlite(join(dir.path, 'read-models.sqlite'));
    events = new SqliteEventStore(eventsDb, { pollIntervalMs: 20, now: () => new Date(AT) });
    readStore = new SqliteReadStore(readDb);
    store = new SqliteUserMessageStore(readDb, { compactSynchronously: true, compactAtMessages: 2 });
    // Messages 1-3 in channel 5 (topics "a", "A", "b"), 4 a direct message, then flag changes, then message 5 in channel 5.
    await append('message-1', messageSent({ messageId: 1, recipientIds: [10, 11], readUserIds: [], recipient: { type: 'stream', streamId: 5, streamName: 'Denmark', topic: 'a' } }));
    await append('message-2', messageSent({ messageId: 2, recipientIds: [10, 11], readUserIds: [], recipient: { type: 'stream', streamId: 5, streamName: 'Denmark', topic: 'A' } }));
    await append('message-3', messageSent({ messageId: 3, recipientIds: [10, 11], readUserIds: [], recipient: { type: 'stream', streamId: 5, streamName: 'Denmark', topic: 'b' } }));
    await append('message-4', directMessageSent(4, 11, [10, 11]));
    await append(messageFlagsStream(10), flagsChanged(10, 'read', 'add', { kind: 'channel', streamId: 5, topic: 'a', upToMessageId: 4 }));
    await append(messageFlagsStream(10), flagsChanged(10, 'starred', 'add', { kind: 'ids', messageIds: [3, 4] }));
    await append(messageFlagsStream(11), flagsChanged(11, 'read', 'add', { kind: 'all', upToMessageId: 4 }));
    await append(messageFlagsStream(11), flagsChanged(11, 'read', 'remove', { kind: 'ids', messageIds: [2] }));
    // User 12 never received messages 1-3: starring 2 and marking 3 unread create historical rows.
    await append(messageFlagsStream(12), flagsChanged(12, 'starred', 'add', { kind: 'ids', messageIds: [2], historicalIds: [2] }));
    await append(messageFlagsStream(12), flagsChanged(12, 'read', 'remove', { kind: 'ids', messageIds: [3], historicalIds: [3] }));
    await append('message-5', messageSent({ messageId: 5, recipientIds: [10, 11], readUserIds: [], recipient: { type: 'stream', streamId: 5, streamName: 'Denmark', topic: 'a' } }));
    await append(messageFlagsStream(10), flagsChanged(10, 'read', 'add', { kind: 'channel', streamId: 5, topic: null, upToMessageId: 3 }));
  });
  afterEach(async () => {
    await events.close();
    eventsDb.close();
    readDb.close();
    dir.remove();
  });

  const expected = {
    // Topic "a" matched "A" too (case-insensitive); message 5 came after the bound and stays unread.
    hamlet: { 1: F.read, 2: F.read, 3: F.read | F.starred, 4: F.is_private | F.starred, 5: 0 },
    cordelia: { 1: F.read, 2: 0, 3: F.read, 4: F.read | F.is_private, 5: 0 },
    historical: { 2: F.read | F.historical | F.starred, 3: F.historical },
  };

  it('applies the changes in log order, bounded selections leaving later messages alone', async () => {
    await run();
    expect(await state()).toEqual(expected);
    expect((await store.unreadCounts(10)).total).toBe(2);
    expect((await store.unreadCounts(11)).total).toBe(2);
  });

  it('is idempotent on redelivery, and a rebuild reproduces the state', async () => {
    await run();
    for (const name of [...ALL_PROJECTIONS.map((x) => x.name), USER_MESSAGES_PROJECTION]) await readStore.deleteCheckpoint(name);
    await run();
    expect(await state()).toEqual(expected);
    await store.reset(USER_MESSAGES_PROJECTION);
    await run();
    expect(await state()).toEqual(expected);
  });
});
