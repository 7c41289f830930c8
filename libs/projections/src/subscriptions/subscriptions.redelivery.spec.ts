import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CHANNEL_MEMBERS, CHANNELS, SUBSCRIPTIONS, type ChannelDocument, type ChannelMembersDocument, type SubscriptionDocument } from '@app/application';
import { openSqlite, SqliteEventStore, SqliteReadStore } from '@app/infrastructure';
import { channelCreated, makeTempDir, subscriptionsCreated, subscriptionsDeactivated } from '@app/testing';
import { Projector } from '../shared/projector';
import { channelsProjection } from '../channels/channels.projection';
import { channelMembersProjection, subscriptionsProjection } from './subscriptions.projection';

const quiet = { info: () => undefined, error: () => undefined };

/** The channel and subscription read models through the real projector and SQLite, replayed twice. */
describe('channel and subscription read models under redelivery', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let eventsDb: Database.Database;
  let readDb: Database.Database;
  let events: SqliteEventStore;
  let readStore: SqliteReadStore;
  const projections = [channelsProjection, subscriptionsProjection, channelMembersProjection];

  beforeEach(() => {
    dir = makeTempDir('channels-projection-');
    eventsDb = openSqlite(join(dir.path, 'events.sqlite'));
    readDb = openSqlite(join(dir.path, 'read-models.sqlite'));
    events = new SqliteEventStore(eventsDb, { pollIntervalMs: 20, now: () => new Date() });
    readStore = new SqliteReadStore(readDb);
  });
  afterEach(async () => {
    await events.close();
    eventsDb.close();
    readDb.close();
    dir.remove();
  });

  const append = (stream: string, list: { type: string; data: object }[]) =>
    events.appendToStream(stream, list.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: { schemaVersion: 1 } })), { expectedRevision: 'any' });

  const project = async () => {
    const projector = new Projector(events, readStore, projections, quiet, { waitTimeoutMs: 3000 });
    await projector.start();
    await projector.catchUp(3000);
    await projector.stop();
  };

  it('applies each event once, even when checkpoints are lost and the log is delivered again', async () => {
    await append('channels-1', [channelCreated({ channelId: 1 })]);
    await append('subscriptions-1', [subscriptionsCreated(1, [10, 11, 12]), subscriptionsDeactivated(1, [11])]);
    await project();
    for (const p of projections) await readStore.deleteCheckpoint(p.name);
    await project();

    expect((await readStore.get<ChannelDocument>(CHANNELS, '1'))!.subscriber_count).toBe(2);
    expect((await readStore.get<ChannelMembersDocument>(CHANNEL_MEMBERS, '1'))!.subscriber_ids).toEqual([10, 12]);
    expect(await readStore.find<SubscriptionDocument>(SUBSCRIPTIONS, { where: { channel_id: 1, active: true } })).toHaveLength(2);
  });
});
