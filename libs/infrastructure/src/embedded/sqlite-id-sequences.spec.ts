import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { advanceSequencesFromLog, type EventStorePort } from '@app/application';
import { makeTempDir, testConfig } from '@app/testing';
import { openAdapters } from '../infrastructure.module';
import { SystemClock } from '../system/system-clock';
import { openSqlite } from './sqlite';
import { SqliteEventStore } from './sqlite-event-store';
import { SqliteIdAllocator } from './sqlite-id-allocator';

const event = (type: string, data: object) => ({ id: randomUUID(), type, data, metadata: { schemaVersion: 1 } as never });

/**
 * The sequences' store is separate from the log (ids.sqlite beside EventStoreDB, MongoDB's
 * _sequences beside any log): dropped or restored from an older backup, it must not hand out an
 * id the log already holds.
 */
describe('advanceSequencesFromLog (id sequences from the log at boot)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let events: SqliteEventStore;
  const dbs: ReturnType<typeof openSqlite>[] = [];
  const open = (name: string) => {
    const db = openSqlite(join(dir.path, name));
    dbs.push(db);
    return db;
  };
  beforeEach(async () => {
    dir = makeTempDir('id-sequences-');
    events = new SqliteEventStore(open('events.sqlite'), { pollIntervalMs: 20, now: () => new Date() });
    await events.appendToStream('users-1', [event('UserCreated', { userId: 7 }), event('BotCreated', { botId: 9, ownerId: 7 })], { expectedRevision: 'no_stream' });
    await events.appendToStream('channels-1', [event('ChannelCreated', { channelId: 4 })], { expectedRevision: 'no_stream' });
    await events.appendToStream('messages-4', [event('MessageSent', { messageId: 120, recipient: { streamId: 4 } })], { expectedRevision: 'no_stream' });
    await events.appendToStream('linkifiers-1', [event('LinkifierAdded', { linkifierId: 3 })], { expectedRevision: 'no_stream' });
  });
  afterEach(async () => {
    await events.close();
    for (const db of dbs.splice(0)) db.close();
    dir.remove();
  });

  it('a fresh (dropped) sequence store continues above the largest id of each sequence in the log', async () => {
    const ids = new SqliteIdAllocator(open('ids.sqlite'));
    const result = await advanceSequencesFromLog(events, ids);
    expect(result.scanned).toBe(5);
    expect(await ids.next('message')).toBe(121);
    expect(await ids.next('user')).toBe(10);
    expect(await ids.next('channel')).toBe(5);
    expect(await ids.next('draft')).toBe(1);
    expect(await ids.next('linkifier')).toBe(4);
  });

  it("named user groups: the user_group sequence continues above the largest named group's id less its base, system groups' ids left out", async () => {
    await events.appendToStream(
      'user_groups-1',
      [event('UserGroupCreated', { groupId: 1_000_004, subgroupIds: [] }), event('UserGroupCreated', { groupId: 1_000_002 }), event('UserGroupMembersAdded', { groupId: 1_000_002 })],
      { expectedRevision: 'no_stream' },
    );
    // A system group (conventional ids 1 … 8 per organization) named by the same key moves nothing.
    await events.appendToStream('other-1', [event('Whatever', { groupId: 6 })], { expectedRevision: 'no_stream' });
    const ids = new SqliteIdAllocator(open('ids.sqlite'));
    const result = await advanceSequencesFromLog(events, ids);
    expect(result.maxima.get('user_group')).toBe(4);
    expect(await ids.next('user_group')).toBe(5);
  });

  it('at the next boot reads only what was appended since, and never moves a sequence back', async () => {
    const ids = new SqliteIdAllocator(open('ids.sqlite'));
    await advanceSequencesFromLog(events, ids);
    expect(await ids.next('message')).toBe(121);
    const read: (bigint | undefined)[] = [];
    const watched: EventStorePort = Object.assign(Object.create(events) as EventStorePort, {
      readAll: (options: { after?: bigint; maxCount: number }) => {
        read.push(options.after);
        return events.readAll(options);
      },
    });
    expect((await advanceSequencesFromLog(watched, ids)).scanned).toBe(0);
    expect(read).toEqual([]);
    // Another process appended a message with an id it allocated; then the sequences were restored from an older backup.
    await events.appendToStream('messages-4', [event('MessageSent', { messageId: 300 })], { expectedRevision: 0n });
    const result = await advanceSequencesFromLog(watched, ids);
    expect(result.scanned).toBe(1);
    expect(read[0]).toBe(5n);
    expect(await ids.next('message')).toBe(301);
  });

  it('pages through the whole log when the store has no scan mark', async () => {
    const ids = new SqliteIdAllocator(open('other-ids.sqlite'));
    expect(await ids.logScannedThrough()).toBeUndefined();
    await advanceSequencesFromLog(events, ids, { pageSize: 1 });
    expect(await ids.logScannedThrough()).toBe(5n);
    expect(await ids.next('user')).toBe(10);
  });

  it('runs when the adapters open: sequences dropped, the next boot allocates above the log', async () => {
    const config = testConfig(dir.path);
    const first = await openAdapters(config, new SystemClock());
    expect(await first.idAllocator.next('message')).toBe(121);
    await first.close();
    // The sequences and their scan mark lost (a dropped or restored store).
    const db = open('events.sqlite');
    db.exec('DELETE FROM sequences; DELETE FROM sequences_log_scan');
    const again = await openAdapters(config, new SystemClock());
    expect(await again.idAllocator.next('message')).toBe(121);
    expect(await again.idAllocator.next('user')).toBe(10);
    await again.close();
  });

  it('a clean close marks the log scanned through its head: the next boot reads none of it again', async () => {
    const config = testConfig(dir.path);
    const first = await openAdapters(config, new SystemClock());
    const messageId = await first.idAllocator.next('message');
    await first.eventStore.appendToStream(`messages-${messageId}`, [event('MessageSent', { messageId })], { expectedRevision: 'no_stream' });
    const head = await first.eventStore.headPosition();
    await first.close();
    const db = open('events.sqlite');
    expect(db.prepare('SELECT position FROM sequences_log_scan').get()).toEqual({ position: expect.stringMatching(new RegExp(`0*${head}$`)) });
    const again = await openAdapters(config, new SystemClock());
    expect(await again.idAllocator.next('message')).toBe(messageId + 1);
    await again.close();
  });
});
