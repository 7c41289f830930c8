import { join } from 'node:path';
import { makeTempDir } from '@app/testing';
import { openSqlite } from './sqlite';
import { SqliteChangeWatcher } from './sqlite-change-watcher';

describe('SqliteChangeWatcher (another process committed to a shared SQLite file)', () => {
  const dir = makeTempDir('change-watcher-');
  const file = join(dir.path, 'shared.sqlite');
  const mine = openSqlite(file);
  const theirs = openSqlite(file); // another process's connection
  mine.exec('CREATE TABLE IF NOT EXISTS t (v INTEGER)');
  afterAll(() => {
    mine.close();
    theirs.close();
    dir.remove();
  });

  const until = async (check: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  };

  it('wakes a listener on another connection\'s commit through the file watch, well before its fallback poll', async () => {
    const watcher = new SqliteChangeWatcher([{ db: mine, file }], { fallbackPollMs: 60_000 });
    let calls = 0;
    const unsubscribe = watcher.onChange(() => calls++);
    const started = Date.now();
    theirs.prepare('INSERT INTO t VALUES (1)').run();
    await until(() => calls > 0, 2000);
    expect(calls).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(1000);
    unsubscribe();
    await watcher.close();
  });

  it('stays quiet on this connection\'s own commits', async () => {
    const watcher = new SqliteChangeWatcher([{ db: mine, file }], { fallbackPollMs: 5 });
    let calls = 0;
    watcher.onChange(() => calls++);
    mine.prepare('INSERT INTO t VALUES (2)').run();
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(0);
    expect(watcher.check()).toBe(false);
    await watcher.close();
  });

  it('the fallback poll alone notices a commit when no file event comes', async () => {
    const watcher = new SqliteChangeWatcher([{ db: mine, file }], { fallbackPollMs: 10 });
    // A file system without change events: no watch at all, the poll alone.
    (watcher as unknown as { startWatching: () => void }).startWatching = () => undefined;
    let calls = 0;
    watcher.onChange(() => calls++);
    theirs.prepare('INSERT INTO t VALUES (3)').run();
    await until(() => calls > 0, 1000);
    expect(calls).toBeGreaterThan(0);
    await watcher.close();
  });
});
