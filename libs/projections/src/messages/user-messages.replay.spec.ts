import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CURRENT_SCHEMA_VERSION, MESSAGE_FLAG_BITS as F } from '@app/domain';
import { openSqlite, SqliteEventStore, SqliteReadStore, SqliteUserMessageStore } from '@app/infrastructure';
import { directMessageSent, makeTempDir, messageSent } from '@app/testing';
import { ALL_PROJECTIONS } from '../all-projections';
import { Projector } from '../shared/projector';
import { USER_MESSAGES_PROJECTION, userMessagesProjection } from './user-messages.projection';

/** The per-user state through the real projector: fed from the log, idempotent, rebuilt by replay. */
describe('user messages replayed by the projector (embedded)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let eventsDb: Database.Database;
  let readDb: Database.Database;
  let events: SqliteEventStore;
  let store: SqliteUserMessageStore;
  let readStore: SqliteReadStore;
  const logger = { info: () => undefined, error: () => undefined };
  const projector = () =>
    new Projector(events, readStore, ALL_PROJECTIONS, logger, { waitTimeoutMs: 5000, batchSize: 2, retryDelayMs: 10, bulkProjections: [userMessagesProjection(store)] });

  beforeEach(async () => {
    dir = makeTempDir('user-messages-');
    eventsDb = openSqlite(join(dir.path, 'events.sqlite'));
    readDb = openSqlite(join(dir.path, 'read-models.sqlite'));
    events = new SqliteEventStore(eventsDb, { pollIntervalMs: 20, now: () => new Date('2026-01-01T00:00:00Z') });
    readStore = new SqliteReadStore(readDb);
    store = new SqliteUserMessageStore(readDb);
    let n = 0;
    for (const event of [messageSent({ messageId: 1, recipientIds: [10, 11], readUserIds: [10], mentionedUserIds: [11] }), directMessageSent(2, 11, [10, 11]), messageSent({ messageId: 3, recipientIds: [10], readUserIds: [] })]) {
      await events.appendToStream(`message-${event.data.messageId}`, [{ id: `00000000-0000-4000-8000-00000000000${++n}`, type: event.type, data: event.data, metadata: { schemaVersion: CURRENT_SCHEMA_VERSION } }], { expectedRevision: 'no_stream' });
    }
  });
  afterEach(async () => {
    await events.close();
    eventsDb.close();
    readDb.close();
    dir.remove();
  });

  const state = async () => ({
    hamlet: Object.fromEntries(await store.flagsFor(10, [1, 2, 3])),
    cordelia: Object.fromEntries(await store.flagsFor(11, [1, 2, 3])),
    unread: (await store.unreadCounts(10)).total,
  });

  it('applies the log in batches and moves its checkpoint with the documents\'', async () => {
    const p = projector();
    await p.start();
    await p.catchUp(5000);
    await p.stop();
    expect(await state()).toEqual({ hamlet: { 1: F.read, 2: F.is_private, 3: 0 }, cordelia: { 1: F.mentioned, 2: F.read | F.is_private }, unread: 2 });
    expect((await readStore.getCheckpoints())[USER_MESSAGES_PROJECTION]).toBe(await events.headPosition());
  });

  it('is idempotent when the log is delivered again (checkpoints lost), and a rebuild reproduces it', async () => {
    let p = projector();
    await p.start();
    await p.catchUp(5000);
    await p.stop();
    const first = await state();
    // Redelivery: every checkpoint forgotten, the rows kept; the store's inserts keep what is there.
    for (const name of [...ALL_PROJECTIONS.map((x) => x.name), USER_MESSAGES_PROJECTION]) await readStore.deleteCheckpoint(name);
    p = projector();
    await p.start();
    await p.catchUp(5000);
    await p.stop();
    expect(await state()).toEqual(first);
    // Rebuild: everything forgotten and replayed.
    await store.reset(USER_MESSAGES_PROJECTION);
    p = projector();
    await p.start();
    await p.catchUp(5000);
    await p.stop();
    expect(await state()).toEqual(first);
  });
});
