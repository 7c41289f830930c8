/**
 * Issue 23, sixth look: a micro-benchmark of two physical layouts of the embedded per-user store,
 * on raw SQLite (better-sqlite3, a WAL file opened as openSqlite does), no application code.
 *
 * - `A` (one table): every row in `um_user_messages (user_id, message_id, flags)` with four
 *   covering partial indexes (unread, starred, mentioned, private); a new unread row is written
 *   twice (table + unread index).
 * - `B` (split): unread rows in `um_unread (user_id, message_id, flags)`, read rows in
 *   `um_user_messages`; the partial indexes starred, mentioned, private on both; a new unread row
 *   is written once. Marking read moves rows from `um_unread` to the main table.
 *
 * Both hold `--users` users × `--messages` messages spread over 10 channels (each user leaves
 * `--unread-channels` of them unread, plus the newest messages), then per round: `--merges`
 * inbox merges of 256 messages × all users (the sender's row read, the others unread; the inbox
 * fill is not timed), and a mark-as-read of one channel then its mark-as-unread by ids for
 * `--flag-users` users. CPU (process.cpuUsage) per merged row and per moved row; the layouts
 * alternate round by round.
 *
 *   node -r ./test/crash/register-swc.js bench/um-unread-layout.ts [--users 51] [--messages 20000]
 *        [--unread-channels 2] [--rounds 6] [--merges 8] [--flag-users 4]
 *
 * Prints only.
 */
import type Database from 'better-sqlite3';
import { cpuMs, openWalDatabase } from './raw-sqlite';
import { intArg, parseArgs, tempDir } from './support';

const args = parseArgs();
const USERS = intArg(args, 'users', 51);
const MESSAGES = intArg(args, 'messages', 20_000);
const UNREAD_CHANNELS = intArg(args, 'unread-channels', 2);
const ROUNDS = intArg(args, 'rounds', 6);
const MERGES = intArg(args, 'merges', 8);
const FLAG_USERS = intArg(args, 'flag-users', 4);
const CHANNELS = 10;
const INBOX = 256;
const READ = 1;
const STARRED = 2;
const MENTIONED = 8;
const PRIVATE = 2048;

type Layout = 'A' | 'B';
const cpu = cpuMs;
const open = openWalDatabase;

const partial = (table: string, layout: Layout) => {
  const list: [string, string][] = [
    ['starred', `(flags & ${STARRED}) != 0`],
    ['mentioned', `(flags & ${MENTIONED}) != 0`],
    ['private', `(flags & ${PRIVATE}) != 0`],
  ];
  if (layout === 'A') list.unshift(['unread', `(flags & ${READ}) = 0`]);
  return list.map(([name, where]) => `CREATE INDEX ix_${table}_${name} ON ${table} (user_id, message_id, flags) WHERE ${where};`).join('\n');
};

function build(layout: Layout, dir: string): { db: Database.Database; next: number } {
  const db = open(`${dir}/${layout}.db`);
  db.exec(`
    CREATE TABLE um_messages (id INTEGER PRIMARY KEY, stream_id INTEGER);
    CREATE INDEX ix_um_messages_stream ON um_messages (stream_id, id);
    CREATE TABLE um_user_messages (user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID;
    CREATE TABLE um_inbox (message_id INTEGER NOT NULL, user_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (message_id, user_id)) WITHOUT ROWID;
    ${layout === 'B' ? 'CREATE TABLE um_unread (user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID;' : ''}
  `);
  db.transaction(() => {
    const msg = db.prepare('INSERT INTO um_messages (id, stream_id) VALUES (?, ?)');
    for (let id = 1; id <= MESSAGES; id++) msg.run(id, id % CHANNELS);
    const main = db.prepare('INSERT INTO um_user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
    const unread = layout === 'B' ? db.prepare('INSERT INTO um_unread (user_id, message_id, flags) VALUES (?, ?, ?)') : main;
    for (let user = 1; user <= USERS; user++) {
      for (let id = 1; id <= MESSAGES; id++) {
        const channel = id % CHANNELS;
        let flags = (user + channel) % CHANNELS < UNREAD_CHANNELS || id > MESSAGES - 300 ? 0 : READ;
        if (id % 97 === user % 97) flags |= STARRED;
        if (id % 53 === user % 53) flags |= MENTIONED;
        ((flags & READ) === 0 ? unread : main).run(user, id, flags);
      }
    }
  })();
  db.exec(partial('um_user_messages', layout));
  if (layout === 'B') db.exec(partial('um_unread', layout));
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { db, next: MESSAGES + 1 };
}

function fillInbox(db: Database.Database, first: number): void {
  db.transaction(() => {
    const msg = db.prepare('INSERT INTO um_messages (id, stream_id) VALUES (?, ?)');
    const row = db.prepare('INSERT INTO um_inbox (message_id, user_id, flags) VALUES (?, ?, ?)');
    for (let id = first; id < first + INBOX; id++) {
      msg.run(id, id % CHANNELS);
      const sender = (id % USERS) + 1;
      for (let user = 1; user <= USERS; user++) row.run(id, user, user === sender ? READ : 0);
    }
  }).immediate();
}

function merge(db: Database.Database, layout: Layout): number {
  return db.transaction(() => {
    let moved = 0;
    if (layout === 'A') {
      moved += db.prepare('INSERT OR IGNORE INTO um_user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags FROM um_inbox ORDER BY user_id, message_id').run().changes;
    } else {
      moved += db.prepare(`INSERT OR IGNORE INTO um_unread (user_id, message_id, flags) SELECT user_id, message_id, flags FROM um_inbox WHERE (flags & ${READ}) = 0 ORDER BY user_id, message_id`).run().changes;
      moved += db.prepare(`INSERT OR IGNORE INTO um_user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags FROM um_inbox WHERE (flags & ${READ}) != 0 ORDER BY user_id, message_id`).run().changes;
    }
    db.prepare('DELETE FROM um_inbox').run();
    return moved;
  }).immediate();
}

const inChannel = (table: string) => `EXISTS (SELECT 1 FROM um_messages m WHERE m.id = ${table}.message_id AND m.stream_id = ?)`;

/** Marks one channel read for the user; the rows changed. */
function markChannelRead(db: Database.Database, layout: Layout, user: number, channel: number): number {
  return db.transaction(() => {
    if (layout === 'A') {
      return db.prepare(`UPDATE um_user_messages INDEXED BY ix_um_user_messages_unread SET flags = flags | ${READ} WHERE user_id = ? AND (flags & ${READ}) = 0 AND ${inChannel('um_user_messages')}`).run(user, channel).changes;
    }
    const moved = db.prepare(`INSERT OR IGNORE INTO um_user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags | ${READ} FROM um_unread WHERE user_id = ? AND ${inChannel('um_unread')} ORDER BY user_id, message_id`).run(user, channel).changes;
    db.prepare(`DELETE FROM um_unread WHERE user_id = ? AND ${inChannel('um_unread')}`).run(user, channel);
    return moved;
  }).immediate();
}

/** Marks the listed messages unread for the user; the rows changed. */
function markUnread(db: Database.Database, layout: Layout, user: number, ids: number[]): number {
  const json = JSON.stringify(ids);
  return db.transaction(() => {
    if (layout === 'A') {
      return db.prepare(`UPDATE um_user_messages SET flags = flags & ~${READ} WHERE user_id = ? AND (flags & ${READ}) != 0 AND message_id IN (SELECT value FROM json_each(?))`).run(user, json).changes;
    }
    const moved = db.prepare(`INSERT OR IGNORE INTO um_unread (user_id, message_id, flags) SELECT user_id, message_id, flags & ~${READ} FROM um_user_messages WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?)) ORDER BY user_id, message_id`).run(user, json).changes;
    db.prepare('DELETE FROM um_user_messages WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))').run(user, json);
    return moved;
  }).immediate();
}

const dir = tempDir('um-layout');
try {
  const t0 = Date.now();
  const stores = { A: build('A', dir.path), B: build('B', dir.path) };
  process.stderr.write(`built in ${Date.now() - t0} ms\n`);
  const results: Record<Layout, { merge: number[]; read: number[]; unread: number[] }> = { A: { merge: [], read: [], unread: [] }, B: { merge: [], read: [], unread: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const layout of (round % 2 === 0 ? ['A', 'B'] : ['B', 'A']) as Layout[]) {
      const store = stores[layout];
      let ms = 0;
      let rows = 0;
      for (let i = 0; i < MERGES; i++) {
        fillInbox(store.db, store.next);
        store.next += INBOX;
        const c0 = cpu();
        rows += merge(store.db, layout);
        ms += cpu() - c0;
      }
      results[layout].merge.push((ms * 1000) / rows);
      let readMs = 0;
      let readRows = 0;
      let unreadMs = 0;
      let unreadRows = 0;
      for (let u = 0; u < FLAG_USERS; u++) {
        const user = ((round * FLAG_USERS + u) % USERS) + 1;
        const channel = (CHANNELS - (user % CHANNELS)) % CHANNELS; // (user + channel) % 10 == 0: an unread channel
        const ids = (store.db.prepare('SELECT id FROM um_messages WHERE stream_id = ? ORDER BY id').all(channel) as { id: number }[]).map((r) => r.id);
        const c0 = cpu();
        readRows += markChannelRead(store.db, layout, user, channel);
        const c1 = cpu();
        unreadRows += markUnread(store.db, layout, user, ids);
        const c2 = cpu();
        readMs += c1 - c0;
        unreadMs += c2 - c1;
      }
      results[layout].read.push((readMs * 1000) / Math.max(1, readRows));
      results[layout].unread.push((unreadMs * 1000) / Math.max(1, unreadRows));
      process.stdout.write(
        `round ${round + 1} ${layout}: merge ${((ms * 1000) / rows).toFixed(3)} µs/row (${rows} rows); mark channel read ${((readMs * 1000) / Math.max(1, readRows)).toFixed(3)} µs/row (${readRows} rows), mark unread by ids ${((unreadMs * 1000) / Math.max(1, unreadRows)).toFixed(3)} µs/row (${unreadRows} rows)\n`,
      );
    }
  }
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];
  for (const layout of ['A', 'B'] as Layout[]) {
    const r = results[layout];
    process.stdout.write(`${layout} median: merge ${med(r.merge).toFixed(3)} µs/row, mark read ${med(r.read).toFixed(3)}, mark unread ${med(r.unread).toFixed(3)}\n`);
  }
  for (const layout of ['A', 'B'] as Layout[]) {
    const s = stores[layout].db;
    const pages = s.prepare("SELECT name, count(*) AS pages FROM dbstat WHERE name LIKE 'um_%' OR name LIKE 'ix_%' GROUP BY name").all();
    process.stdout.write(`${layout} pages: ${JSON.stringify(pages)}\n`);
    s.close();
  }
} finally {
  dir.remove();
}
