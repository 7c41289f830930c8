import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { openSqlite, SqliteEventStore } from '@app/infrastructure';
import { makeTempDir } from '@app/testing';
import type { EventStorePort } from '../ports/event-store.port';
import { appendBytesOf, exportEventLog, ImportError, importEventLog, MAX_IMPORT_APPEND_BYTES } from './event-log-backup';

const openStore = (dir: string, name: string) => {
  const db = openSqlite(join(dir, name));
  return { store: new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date('2026-02-03T04:05:06Z') }), db };
};
const event = (type: string, data: object = {}) => ({ id: randomUUID(), type, data, metadata: { schemaVersion: 1 } });

describe('event log backup', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir()));
  afterEach(() => dir.remove());

  it('round-trips the log: the same streams, revisions, ids, types, data and order', async () => {
    const source = openStore(dir.path, 'a.sqlite');
    await source.store.appendToStream('users-1', [event('UserCreated', { userId: 1, name: 'Ada ✔' }), event('UserCreated', { userId: 2 })], { expectedRevision: 'no_stream' });
    await source.store.appendToStream('realm-1', [event('RealmPropertyChanged', { property: 'name' })], { expectedRevision: 'no_stream' });
    await source.store.appendToStream('users-1', [event('UserDeactivated', { userId: 2 })], { expectedRevision: 1n });
    const file = join(dir.path, 'backup.ndjson');
    expect(await exportEventLog(source.store, file)).toBe(4);

    const target = openStore(dir.path, 'b.sqlite');
    const seen: number[] = [];
    expect(await importEventLog(target.store, file, (n) => seen.push(n))).toBe(4);
    expect(seen[seen.length - 1]).toBe(4);
    const strip = (events: Awaited<ReturnType<SqliteEventStore['readAll']>>) => events.map(({ position: _p, recordedAt: _r, ...rest }) => rest);
    expect(strip(await target.store.readAll({ maxCount: 100 }))).toEqual(strip(await source.store.readAll({ maxCount: 100 })));
    const again = join(dir.path, 'again.ndjson');
    await exportEventLog(target.store, again);
    const withoutTimes = (text: string) => text.split('\n').filter(Boolean).map((l) => { const { recordedAt: _r, ...e } = JSON.parse(l); return e; });
    expect(withoutTimes(readFileSync(again, 'utf8'))).toEqual(withoutTimes(readFileSync(file, 'utf8')));
    source.db.close();
    target.db.close();
  });

  it('refuses a store that already holds events, and appends nothing', async () => {
    const target = openStore(dir.path, 'b.sqlite');
    await target.store.appendToStream('x-1', [event('Existing')], { expectedRevision: 'no_stream' });
    const file = join(dir.path, 'in.ndjson');
    writeFileSync(file, JSON.stringify({ streamId: 'y-1', revision: '0', id: randomUUID(), type: 'T', data: {}, metadata: { schemaVersion: 1 }, recordedAt: '' }) + '\n');
    await expect(importEventLog(target.store, file)).rejects.toBeInstanceOf(ImportError);
    expect(await target.store.readAll({ maxCount: 10 })).toHaveLength(1);
    target.db.close();
  });

  it('names the line of a malformed export', async () => {
    const target = openStore(dir.path, 'b.sqlite');
    const file = join(dir.path, 'bad.ndjson');
    writeFileSync(file, '{"streamId":"a-1","revision":"0","id":"x","type":"T","data":{},"metadata":{}}\n{oops\n');
    await expect(importEventLog(target.store, file)).rejects.toThrow('line 2: not valid JSON');
    target.db.close();
  });

  it('bounds each import append by bytes, under EventStoreDB’s 1 MiB append limit', async () => {
    const source = openStore(dir.path, 'a.sqlite');
    // One stream's run of 40 events of ~100 KiB each: 500 of them per append would be ~4 MiB.
    const big = 'x'.repeat(100 * 1024);
    await source.store.appendToStream('messages-1', Array.from({ length: 40 }, (_, i) => event('MessageSent', { messageId: i + 1, content: big })), { expectedRevision: 'no_stream' });
    const file = join(dir.path, 'big.ndjson');
    await exportEventLog(source.store, file);

    const target = openStore(dir.path, 'b.sqlite');
    const appends: { events: number; bytes: number }[] = [];
    const spy: EventStorePort = Object.assign(Object.create(target.store) as EventStorePort, {
      appendToStream: async (streamId: string, events: Parameters<EventStorePort['appendToStream']>[1], options: Parameters<EventStorePort['appendToStream']>[2]) => {
        appends.push({ events: events.length, bytes: events.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e.data)) + Buffer.byteLength(JSON.stringify(e.metadata)), 0) });
        return target.store.appendToStream(streamId, events, options);
      },
    });
    expect(await importEventLog(spy, file)).toBe(40);
    expect(appends.length).toBeGreaterThan(1);
    for (const a of appends) expect(a.bytes).toBeLessThanOrEqual(MAX_IMPORT_APPEND_BYTES);
    expect(Math.max(...appends.map((a) => a.bytes))).toBeLessThan(1024 * 1024);
    expect(appends.reduce((n, a) => n + a.events, 0)).toBe(40);
    expect((await target.store.readStream('messages-1')).revision).toBe(39n);
    source.db.close();
    target.db.close();
  });

  it('an event larger than the bound is appended alone', async () => {
    const target = openStore(dir.path, 'b.sqlite');
    const file = join(dir.path, 'in.ndjson');
    const line = (revision: number, content: string) =>
      JSON.stringify({ streamId: 's-1', revision: String(revision), id: randomUUID(), type: 'T', data: { content }, metadata: { schemaVersion: 1 }, recordedAt: '' });
    writeFileSync(file, [line(0, 'a'), line(1, 'y'.repeat(3000)), line(2, 'b')].join('\n') + '\n');
    const sizes: number[] = [];
    const spy: EventStorePort = Object.assign(Object.create(target.store) as EventStorePort, {
      appendToStream: async (streamId: string, events: Parameters<EventStorePort['appendToStream']>[1], options: Parameters<EventStorePort['appendToStream']>[2]) => {
        sizes.push(events.length);
        return target.store.appendToStream(streamId, events, options);
      },
    });
    expect(appendBytesOf({ streamId: 's-1', revision: '1', id: 'x', type: 'T', data: { content: 'y'.repeat(3000) }, metadata: {}, recordedAt: '' })).toBeGreaterThan(2000);
    expect(await importEventLog(spy, file, undefined, undefined, { maxBytes: 2000 })).toBe(3);
    expect(sizes).toEqual([1, 1, 1]);
    target.db.close();
  });
});
