import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { openSqlite, SqliteEventStore } from '@app/infrastructure';
import { makeTempDir } from '@app/testing';
import { exportEventLog, ImportError, importEventLog } from './event-log-backup';

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
});
