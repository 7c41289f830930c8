/**
 * Issue 23, seventh look: what per-user layouts without one B-tree entry per recipient per
 * message would cost and save, on raw SQLite (better-sqlite3, a WAL file opened as openSqlite
 * does), no application code. A decision aid for the send target: only `rows` is in use.
 *
 * - `rows` (the layout of `SqliteUserMessageStore` today): unread rows in `um_unread (user_id,
 *   message_id, flags)`, read rows in `um_user_messages`, both WITHOUT ROWID, with partial indexes
 *   on starred and mentioned; a merge moves the inbox's rows into them, one entry per recipient.
 * - `blocks`: a user's messages as bit masks over blocks of 32 message ids: `um_unread_blocks
 *   (user_id, block, bits)` and `um_read_blocks`; flags other than read (starred, mentioned) as
 *   rows of `um_flagged` only where set. A merge ORs the inbox's bits in, one entry per recipient
 *   and block of 32 ids (the densest case: one entry per recipient per 32 messages).
 * - `implied`: a channel message's recipients are not written: they are the users whose
 *   subscription interval (`um_subs (user_id, stream_id, from_id, to_id)`) holds it. Read state is
 *   a watermark per user and channel (`um_read_marks`: every message up to `through_id` is read)
 *   and rows of `um_flag_rows` only where a message's flags differ from what the watermark implies
 *   (the sender's read row above it, an unread one below it, stars, mentions). A send writes only
 *   those rows; marking a channel read moves the watermark and drops the plain read rows under it.
 *
 * Both hold `--users` users × `--messages` messages spread over 10 channels; each user is
 * subscribed to `--subscribed` of them (10: every user receives every message, the bench's
 * channel of 50; 1: a tenth, nearer P8's organization, whose blocks are sparse) and leaves
 * `--unread-channels` of those unread plus the newest 300 messages. Per round, layouts alternating:
 * `--merges` inbox merges of 256 messages (the sender's row read, the others unread; the inbox
 * fill is not timed; `implied` writes only the rows that differ from the watermark), CPU per
 * recipient of the merged messages; then for `--flag-users` users: unread counts per
 * channel (what unread_msgs and /register read), the newest 100 unread of an unread channel (a
 * "channel + is:unread" narrow), and marking that channel read, CPU per operation.
 *
 * All layouts must answer the same (checked each round), or the timings would compare different work.
 *
 *   node -r ./test/crash/register-swc.js bench/um-layouts.ts [--users 51] [--messages 20000]
 *        [--subscribed 10] [--unread-channels 2] [--rounds 6] [--merges 8] [--flag-users 4]
 *
 * Prints only.
 */
import type Database from 'better-sqlite3';
import { cpuMs, openWalDatabase } from './raw-sqlite';
import { intArg, parseArgs, tempDir } from './support';

const args = parseArgs();
const USERS = intArg(args, 'users', 51);
const MESSAGES = intArg(args, 'messages', 20_000);
const SUBSCRIBED = Math.min(10, Math.max(1, intArg(args, 'subscribed', 10)));
const UNREAD_CHANNELS = Math.min(SUBSCRIBED, intArg(args, 'unread-channels', 2));
const ROUNDS = intArg(args, 'rounds', 6);
const MERGES = intArg(args, 'merges', 8);
const FLAG_USERS = intArg(args, 'flag-users', 4);
const CHANNELS = 10;
const INBOX = 256;
const READ = 1;
const STARRED = 2;
const MENTIONED = 8;
/** Message ids a block covers: 32 keeps a sum of distinct bits inside SQLite's 64-bit integers. */
const BLOCK_BITS = 5;

type Layout = 'rows' | 'blocks' | 'implied';
const LAYOUTS: Layout[] = ['rows', 'blocks', 'implied'];
const NEVER = Number.MAX_SAFE_INTEGER;
const cpu = cpuMs;
const open = openWalDatabase;

const channelOf = (id: number) => id % CHANNELS;
/** User u is subscribed to channel c when (u + c) % 10 < SUBSCRIBED; its unread channels are the first UNREAD_CHANNELS of those. */
const subscribed = (user: number, channel: number) => (user + channel) % CHANNELS < SUBSCRIBED;
const leftUnread = (user: number, channel: number) => (user + channel) % CHANNELS < UNREAD_CHANNELS;
const recipients = (id: number) => {
  const list: number[] = [];
  for (let user = 1; user <= USERS; user++) if (subscribed(user, channelOf(id))) list.push(user);
  return list;
};

function build(layout: Layout, dir: string): Database.Database {
  const db = open(`${dir}/${layout}.db`);
  db.exec(`
    CREATE TABLE um_messages (id INTEGER PRIMARY KEY, stream_id INTEGER);
    CREATE INDEX ix_um_messages_stream ON um_messages (stream_id, id);
    CREATE TABLE um_inbox (message_id INTEGER NOT NULL, user_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (message_id, user_id)) WITHOUT ROWID;
  `);
  if (layout === 'rows') {
    for (const table of ['um_user_messages', 'um_unread']) {
      db.exec(`CREATE TABLE ${table} (user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID`);
    }
  } else if (layout === 'implied') {
    db.exec(`
      CREATE TABLE um_subs (user_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, from_id INTEGER NOT NULL, to_id INTEGER NOT NULL, PRIMARY KEY (user_id, stream_id, from_id)) WITHOUT ROWID;
      CREATE TABLE um_read_marks (user_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, through_id INTEGER NOT NULL, PRIMARY KEY (user_id, stream_id)) WITHOUT ROWID;
      CREATE TABLE um_flag_rows (user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID;
    `);
  } else {
    for (const table of ['um_read_blocks', 'um_unread_blocks']) {
      db.exec(`CREATE TABLE ${table} (user_id INTEGER NOT NULL, block INTEGER NOT NULL, bits INTEGER NOT NULL, PRIMARY KEY (user_id, block)) WITHOUT ROWID`);
    }
    db.exec('CREATE TABLE um_flagged (user_id INTEGER NOT NULL, message_id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID');
  }
  db.transaction(() => {
    const msg = db.prepare('INSERT INTO um_messages (id, stream_id) VALUES (?, ?)');
    for (let id = 1; id <= MESSAGES; id++) msg.run(id, channelOf(id));
    if (layout === 'implied') {
      // Subscribed since the first message; read up to the last message before the newest 300 in
      // a channel left read, nothing read in a channel left unread.
      const sub = db.prepare('INSERT INTO um_subs (user_id, stream_id, from_id, to_id) VALUES (?, ?, 1, ?)');
      const mark = db.prepare('INSERT INTO um_read_marks (user_id, stream_id, through_id) SELECT ?, ?, coalesce(max(id), 0) FROM um_messages WHERE stream_id = ? AND id <= ?');
      for (let user = 1; user <= USERS; user++) {
        for (let channel = 0; channel < CHANNELS; channel++) {
          if (!subscribed(user, channel)) continue;
          sub.run(user, channel, NEVER);
          mark.run(user, channel, channel, leftUnread(user, channel) ? 0 : MESSAGES - 300);
        }
      }
    }
    for (let id = 1; id <= MESSAGES; id++) {
      const sender = (id % USERS) + 1;
      const inbox = db.prepare('INSERT INTO um_inbox (message_id, user_id, flags) VALUES (?, ?, ?)');
      for (const user of recipients(id)) {
        let flags = user === sender || (!leftUnread(user, channelOf(id)) && id <= MESSAGES - 300) ? READ : 0;
        if (id % 97 === user % 97) flags |= STARRED;
        if (id % 53 === user % 53) flags |= MENTIONED;
        inbox.run(id, user, flags);
      }
      if (id % INBOX === 0 || id === MESSAGES) merge(db, layout);
    }
  })();
  if (layout === 'rows') {
    for (const table of ['um_user_messages', 'um_unread']) {
      db.exec(`CREATE INDEX ix_${table}_starred ON ${table} (user_id, message_id, flags) WHERE (flags & ${STARRED}) != 0`);
      db.exec(`CREATE INDEX ix_${table}_mentioned ON ${table} (user_id, message_id, flags) WHERE (flags & ${MENTIONED}) != 0`);
    }
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  return db;
}

/** Sends 256 messages into the inbox (not timed); returns their recipients' count. */
function fillInbox(db: Database.Database, layout: Layout, first: number): number {
  let count = 0;
  db.transaction(() => {
    const msg = db.prepare('INSERT INTO um_messages (id, stream_id) VALUES (?, ?)');
    const row = db.prepare('INSERT INTO um_inbox (message_id, user_id, flags) VALUES (?, ?, ?)');
    for (let id = first; id < first + INBOX; id++) {
      msg.run(id, channelOf(id));
      const sender = (id % USERS) + 1;
      for (const user of recipients(id)) {
        count++;
        // A new message is above every watermark, so only the sender's read row differs from what `implied` derives.
        if (layout !== 'implied' || user === sender) row.run(id, user, user === sender ? READ : 0);
      }
    }
  }).immediate();
  return count;
}

/** Moves the inbox into the layout's tables. */
function merge(db: Database.Database, layout: Layout): void {
  const run = () => {
    if (layout === 'implied') {
      // Only rows whose flags differ from what the user's watermark in the message's channel implies.
      db.prepare(
        `INSERT OR IGNORE INTO um_flag_rows (user_id, message_id, flags)
         SELECT i.user_id, i.message_id, i.flags FROM um_inbox i CROSS JOIN um_messages m ON m.id = i.message_id
         LEFT JOIN um_read_marks w ON w.user_id = i.user_id AND w.stream_id = m.stream_id
         WHERE i.flags != (CASE WHEN i.message_id <= coalesce(w.through_id, 0) THEN ${READ} ELSE 0 END) ORDER BY 1, 2`,
      ).run();
    } else if (layout === 'rows') {
      db.prepare(`INSERT OR IGNORE INTO um_unread (user_id, message_id, flags) SELECT user_id, message_id, flags FROM um_inbox WHERE (flags & ${READ}) = 0 ORDER BY user_id, message_id`).run();
      db.prepare(`INSERT OR IGNORE INTO um_user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags FROM um_inbox WHERE (flags & ${READ}) != 0 ORDER BY user_id, message_id`).run();
    } else {
      for (const [table, test] of [['um_unread_blocks', '= 0'], ['um_read_blocks', '!= 0']]) {
        // A sum of distinct powers of two is their OR: each (user, message) is in the inbox once.
        db.prepare(
          `INSERT INTO ${table} (user_id, block, bits)
           SELECT user_id, message_id >> ${BLOCK_BITS}, sum(1 << (message_id & 31)) FROM um_inbox WHERE (flags & ${READ}) ${test}
           GROUP BY user_id, message_id >> ${BLOCK_BITS} ORDER BY 1, 2
           ON CONFLICT (user_id, block) DO UPDATE SET bits = bits | excluded.bits`,
        ).run();
      }
      db.prepare(`INSERT OR IGNORE INTO um_flagged (user_id, message_id, flags) SELECT user_id, message_id, flags FROM um_inbox WHERE (flags & ~${READ}) != 0 ORDER BY user_id, message_id`).run();
    }
    db.prepare('DELETE FROM um_inbox').run();
  };
  if (db.inTransaction) run();
  else db.transaction(run).immediate();
}

const BITS_CTE = 'WITH RECURSIVE bit(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM bit WHERE i < 31)';

/** Unread messages per channel for one user (what /register's unread_msgs groups). */
function unreadCounts(db: Database.Database, layout: Layout, user: number, channel?: number): { stream_id: number; n: number }[] {
  if (layout === 'implied') {
    // Per subscription interval: its messages above the watermark (a range of the channel's
    // index), less those with a read row, plus the unread rows at or below it. Flag rows are few,
    // so the two corrections read little; nothing is probed message by message.
    return db
      .prepare(
        `SELECT stream_id, sum(n) AS n FROM (
           SELECT s.stream_id,
             (SELECT count(*) FROM um_messages m WHERE m.stream_id = s.stream_id AND m.id > max(s.from_id - 1, coalesce(w.through_id, 0)) AND m.id <= s.to_id)
             - (SELECT count(*) FROM um_flag_rows f CROSS JOIN um_messages m ON m.id = f.message_id
                WHERE f.user_id = s.user_id AND f.message_id > max(s.from_id - 1, coalesce(w.through_id, 0)) AND f.message_id <= s.to_id AND m.stream_id = s.stream_id AND (f.flags & ${READ}) != 0)
             + (SELECT count(*) FROM um_flag_rows f CROSS JOIN um_messages m ON m.id = f.message_id
                WHERE f.user_id = s.user_id AND f.message_id BETWEEN s.from_id AND min(s.to_id, coalesce(w.through_id, 0)) AND m.stream_id = s.stream_id AND (f.flags & ${READ}) = 0) AS n
           FROM um_subs s LEFT JOIN um_read_marks w ON w.user_id = s.user_id AND w.stream_id = s.stream_id
           WHERE s.user_id = ? AND (? IS NULL OR s.stream_id = ?))
         WHERE n > 0 GROUP BY stream_id ORDER BY 1`,
      )
      .all(user, channel ?? null, channel ?? null) as { stream_id: number; n: number }[];
  }
  if (layout === 'rows') {
    return db.prepare('SELECT m.stream_id, count(*) AS n FROM um_unread u CROSS JOIN um_messages m ON m.id = u.message_id WHERE u.user_id = ? GROUP BY m.stream_id ORDER BY 1').all(user) as { stream_id: number; n: number }[];
  }
  return db
    .prepare(
      `${BITS_CTE} SELECT m.stream_id, count(*) AS n FROM um_unread_blocks b CROSS JOIN bit CROSS JOIN um_messages m ON m.id = (b.block << ${BLOCK_BITS}) + bit.i
       WHERE b.user_id = ? AND (b.bits >> bit.i) & 1 GROUP BY m.stream_id ORDER BY 1`,
    )
    .all(user) as { stream_id: number; n: number }[];
}

/** The newest 100 unread messages of a channel for one user (a "channel + is:unread" narrow). */
function newestUnread(db: Database.Database, layout: Layout, user: number, channel: number): number[] {
  if (layout === 'implied') {
    const through = watermark(db, user, channel);
    return (
      db
        .prepare(
          `SELECT id FROM (
             SELECT m.id FROM um_messages m WHERE m.stream_id = ? AND m.id > ?
               AND EXISTS (SELECT 1 FROM um_subs s WHERE s.user_id = ? AND s.stream_id = m.stream_id AND m.id BETWEEN s.from_id AND s.to_id)
               AND NOT EXISTS (SELECT 1 FROM um_flag_rows f WHERE f.user_id = ? AND f.message_id = m.id AND (f.flags & ${READ}) != 0)
             UNION ALL
             SELECT f.message_id FROM um_flag_rows f CROSS JOIN um_messages m ON m.id = f.message_id
             WHERE f.user_id = ? AND f.message_id <= ? AND m.stream_id = ? AND (f.flags & ${READ}) = 0)
           ORDER BY id DESC LIMIT 100`,
        )
        .all(channel, through, user, user, user, through, channel) as { id: number }[]
    ).map((r) => r.id);
  }
  const sql =
    layout === 'rows'
      ? 'SELECT u.message_id AS id FROM um_unread u CROSS JOIN um_messages m ON m.id = u.message_id WHERE u.user_id = ? AND m.stream_id = ? ORDER BY u.message_id DESC LIMIT 100'
      : `SELECT m.id FROM um_messages m CROSS JOIN um_unread_blocks b ON b.user_id = ? AND b.block = m.id >> ${BLOCK_BITS} AND (b.bits >> (m.id & 31)) & 1
         WHERE m.stream_id = ? ORDER BY m.id DESC LIMIT 100`;
  return (db.prepare(sql).all(user, channel) as { id: number }[]).map((r) => r.id);
}

const watermark = (db: Database.Database, user: number, channel: number): number =>
  (db.prepare('SELECT through_id AS t FROM um_read_marks WHERE user_id = ? AND stream_id = ?').get(user, channel) as { t: number } | undefined)?.t ?? 0;

/** Marks one channel read for the user; the messages that became read. */
function markChannelRead(db: Database.Database, layout: Layout, user: number, channel: number): number {
  return db.transaction(() => {
    if (layout === 'implied') {
      const moved = unreadCounts(db, layout, user, channel)[0]?.n ?? 0;
      const newest = (db.prepare('SELECT max(id) AS id FROM um_messages WHERE stream_id = ?').get(channel) as { id: number | null }).id ?? 0;
      const inChannel = `message_id IN (SELECT id FROM um_messages WHERE stream_id = ${channel} AND id <= ${newest})`;
      // Plain read rows under the new watermark say nothing more; other flags keep their row, now read.
      db.prepare(`DELETE FROM um_flag_rows WHERE user_id = ? AND flags = ${READ} AND ${inChannel}`).run(user);
      db.prepare(`UPDATE um_flag_rows SET flags = flags | ${READ} WHERE user_id = ? AND (flags & ${READ}) = 0 AND ${inChannel}`).run(user);
      db.prepare('INSERT INTO um_read_marks (user_id, stream_id, through_id) VALUES (?, ?, ?) ON CONFLICT (user_id, stream_id) DO UPDATE SET through_id = max(through_id, excluded.through_id)').run(user, channel, newest);
      return moved;
    }
    const inChannel = (table: string) => `EXISTS (SELECT 1 FROM um_messages m WHERE m.id = ${table}.message_id AND m.stream_id = ?)`;
    if (layout === 'rows') {
      const moved = db.prepare(`INSERT OR IGNORE INTO um_user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags | ${READ} FROM um_unread WHERE user_id = ? AND ${inChannel('um_unread')} ORDER BY user_id, message_id`).run(user, channel).changes;
      db.prepare(`DELETE FROM um_unread WHERE user_id = ? AND ${inChannel('um_unread')}`).run(user, channel);
      return moved;
    }
    // The channel's mask per block, ANDed with the user's unread bits: those bits move to the read blocks.
    db.exec('CREATE TEMP TABLE IF NOT EXISTS moving (block INTEGER PRIMARY KEY, bits INTEGER NOT NULL)');
    db.exec('DELETE FROM temp.moving');
    db.prepare(
      `INSERT INTO temp.moving (block, bits)
       SELECT b.block, b.bits & c.mask FROM (SELECT id >> ${BLOCK_BITS} AS block, sum(1 << (id & 31)) AS mask FROM um_messages WHERE stream_id = ? GROUP BY 1) c
       CROSS JOIN um_unread_blocks b ON b.user_id = ? AND b.block = c.block WHERE b.bits & c.mask != 0`,
    ).run(channel, user);
    const moved = (db.prepare(`${BITS_CTE} SELECT count(*) AS n FROM temp.moving CROSS JOIN bit WHERE (bits >> bit.i) & 1`).get() as { n: number }).n;
    db.prepare(
      `INSERT INTO um_read_blocks (user_id, block, bits) SELECT ?, block, bits FROM temp.moving WHERE true
       ON CONFLICT (user_id, block) DO UPDATE SET bits = bits | excluded.bits`,
    ).run(user);
    db.prepare('UPDATE um_unread_blocks SET bits = bits & ~(SELECT bits FROM temp.moving WHERE block = um_unread_blocks.block) WHERE user_id = ? AND block IN (SELECT block FROM temp.moving)').run(user);
    db.prepare('DELETE FROM um_unread_blocks WHERE user_id = ? AND bits = 0').run(user);
    return moved;
  }).immediate();
}

const dir = tempDir('um-layouts');
try {
  const t0 = Date.now();
  const stores = { rows: build('rows', dir.path), blocks: build('blocks', dir.path), implied: build('implied', dir.path) };
  process.stderr.write(`built in ${Date.now() - t0} ms (${USERS} users, ${MESSAGES} messages, ${SUBSCRIBED} of 10 channels each)\n`);
  // Both layouts must give the same answers, or the timings compare different work.
  for (let user = 1; user <= Math.min(USERS, 5); user++) {
    const answers = LAYOUTS.map((l) => JSON.stringify(unreadCounts(stores[l], l, user)));
    if (new Set(answers).size !== 1) throw new Error(`unread counts differ for user ${user}: ${answers.join(' / ')}`);
  }
  let next = MESSAGES + 1;
  type Result = { merge: number[]; counts: number[]; newest: number[]; read: number[] };
  const results = Object.fromEntries(LAYOUTS.map((l) => [l, { merge: [], counts: [], newest: [], read: [] }])) as unknown as Record<Layout, Result>;
  for (let round = 0; round < ROUNDS; round++) {
    const first = next;
    next += MERGES * INBOX;
    const users = Array.from({ length: FLAG_USERS }, (_, u) => ((round * FLAG_USERS + u) % USERS) + 1);
    const unreadChannelOf = (user: number) => (CHANNELS - (user % CHANNELS)) % CHANNELS; // (user + channel) % 10 == 0
    const answers: Partial<Record<Layout, string>> = {};
    // Each layout first, middle and last in turn.
    for (const layout of [...LAYOUTS.slice(round % LAYOUTS.length), ...LAYOUTS.slice(0, round % LAYOUTS.length)]) {
      const db = stores[layout];
      let ms = 0;
      let rows = 0;
      for (let i = 0; i < MERGES; i++) {
        rows += fillInbox(db, layout, first + i * INBOX);
        const c0 = cpu();
        merge(db, layout);
        ms += cpu() - c0;
      }
      let counts = 0;
      let newest = 0;
      let read = 0;
      const seen: unknown[] = [];
      for (const user of users) {
        const channel = unreadChannelOf(user);
        const c0 = cpu();
        const c = unreadCounts(db, layout, user);
        const c1 = cpu();
        const n = newestUnread(db, layout, user, channel);
        const c2 = cpu();
        const moved = markChannelRead(db, layout, user, channel);
        const c3 = cpu();
        counts += c1 - c0;
        newest += c2 - c1;
        read += c3 - c2;
        seen.push(c, n, moved);
      }
      answers[layout] = JSON.stringify(seen);
      const r = results[layout];
      r.merge.push((ms * 1000) / rows);
      r.counts.push(counts / users.length);
      r.newest.push(newest / users.length);
      r.read.push(read / users.length);
      process.stdout.write(
        `round ${round + 1} ${layout}: merge ${((ms * 1000) / rows).toFixed(3)} µs a recipient (${rows} recipients); unread counts ${(counts / users.length).toFixed(2)} ms; newest 100 unread of a channel ${(newest / users.length).toFixed(2)} ms; mark the channel read ${(read / users.length).toFixed(2)} ms\n`,
      );
    }
    if (new Set(Object.values(answers)).size !== 1) throw new Error(`round ${round + 1}: the layouts answered differently`);
  }
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];
  for (const layout of LAYOUTS) {
    const r = results[layout];
    process.stdout.write(`${layout} median of ${ROUNDS}: merge ${med(r.merge).toFixed(3)} µs a recipient; unread counts ${med(r.counts).toFixed(2)} ms; newest 100 unread ${med(r.newest).toFixed(2)} ms; mark a channel read ${med(r.read).toFixed(2)} ms\n`);
  }
  for (const layout of LAYOUTS) {
    const db = stores[layout];
    const pages = db.prepare("SELECT name, count(*) AS pages FROM dbstat WHERE name LIKE 'um_%' OR name LIKE 'ix_um_u%' OR name LIKE 'sqlite_autoindex_um%' GROUP BY name ORDER BY name").all() as { name: string; pages: number }[];
    process.stdout.write(`${layout} pages: ${pages.map((p) => `${p.name} ${p.pages}`).join(', ')}\n`);
    db.close();
  }
} finally {
  dir.remove();
}
