import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite } from './sqlite';

/**
 * Another process holds the file's exclusive lock for `holdMs` (a rollback-journal database, as a
 * file is before its first switch to WAL); resolves once it holds it.
 */
function holdExclusiveLock(file: string, holdMs: number): Promise<{ done: Promise<void> }> {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    db.exec('INSERT INTO t VALUES (1)');
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve({ done })));
}

describe('openSqlite', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'open-sqlite-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('waits past the busy timeout for the switch to WAL while another process holds the file locked', async () => {
    const file = join(dir, 'locked.sqlite');
    const setup = new Database(file);
    setup.exec('CREATE TABLE t (x INTEGER)');
    setup.close();
    // Longer than the busy timeout (5 s): one attempt alone fails with "database is locked".
    const { done } = await holdExclusiveLock(file, 6_000);
    const started = Date.now();
    const db = openSqlite(file);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    db.close();
    await done;
  }, 30_000);
});
