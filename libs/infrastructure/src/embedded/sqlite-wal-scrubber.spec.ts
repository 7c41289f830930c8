import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir } from '@app/testing';
import { openReadModelDatabase, openSqlite, withSecureDelete } from './sqlite';
import { SqliteWalScrubber } from './sqlite-wal-scrubber';

describe('SqliteWalScrubber', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('wal-scrubber-')));
  afterEach(() => dir.remove());

  const fileHolds = (file: string, text: string) => {
    try {
      return readFileSync(file).includes(Buffer.from(text));
    } catch {
      return false;
    }
  };

  it('leaves no deleted text in the database file or its WAL once the checkpoint finishes; a reader makes it incomplete until it ends', async () => {
    const file = join(dir.path, 'read-models.sqlite');
    const db = withSecureDelete(openSqlite(file));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
    db.prepare('INSERT INTO t (body) VALUES (?)').run('zqsecretwords1 '.repeat(50));
    db.prepare('INSERT INTO t (body) VALUES (?)').run('kept');
    db.prepare('DELETE FROM t WHERE id = 1').run();
    expect(fileHolds(`${file}-wal`, 'zqsecretwords1')).toBe(true);

    // Another connection in the middle of a read keeps the WAL from being emptied.
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM t').get();
    const scrubber = new SqliteWalScrubber(() => [db]);
    expect(await scrubber.scrubNow()).toEqual({ databases: 1, incomplete: 1 });
    reader.exec('COMMIT');
    reader.close();

    expect(await scrubber.scrubNow()).toEqual({ databases: 1, incomplete: 0 });
    expect(statSync(`${file}-wal`).size).toBe(0);
    expect(fileHolds(file, 'zqsecretwords1')).toBe(false);
    expect(fileHolds(file, 'kept')).toBe(true);
    // The connection's own busy timeout is back.
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    await scrubber.close();
    db.close();
  });

  it('skips a database still filled from zero (no WAL yet) and closed ones; a request runs one scrub soon', async () => {
    const loading = openReadModelDatabase(join(dir.path, 'read-models-copy.sqlite'));
    const closed = openSqlite(join(dir.path, 'closed.sqlite'));
    closed.close();
    const live = openSqlite(join(dir.path, 'live.sqlite'));
    const scrubber = new SqliteWalScrubber(() => [loading, closed, live]);
    expect(await scrubber.scrubNow()).toEqual({ databases: 1, incomplete: 0 });
    expect(loading.pragma('secure_delete', { simple: true })).toBe(1);

    live.exec('CREATE TABLE t (x TEXT)');
    live.prepare('INSERT INTO t VALUES (?)').run('zqrequested2');
    expect(statSync(join(dir.path, 'live.sqlite-wal')).size).toBeGreaterThan(0);
    scrubber.request();
    scrubber.request();
    for (let waited = 0; statSync(join(dir.path, 'live.sqlite-wal')).size > 0 && waited < 3000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(statSync(join(dir.path, 'live.sqlite-wal')).size).toBe(0);
    await scrubber.close();
    loading.close();
    live.close();
  });
});
