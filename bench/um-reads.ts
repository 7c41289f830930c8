/**
 * Issue 23: the per-user store's reads for one user of an organization built by
 * bench/history-scale.ts (`--data-dir`), in process, on the embedded store alone: the narrows a
 * client opens (all messages, one channel, is:unread, a search), unread counts and unread_msgs'
 * ids, flags of 100 messages. Median wall time (µs) of `--runs` runs after one warm-up; no HTTP.
 * Compares layouts when run on data directories built by different versions (every row written
 * against implied recipients): the history-scale sender has a row of every message, the other
 * users (`--user-id`, default 500) only of their channels' messages, all unread.
 *
 *   node dist/bench/um-reads.js --data-dir DIR [--user-id 500] [--runs 10]
 *
 * Opens the store as the application does (prepare(): a database of an older layout gets the
 * implied column at this point). Prints to stdout only.
 */
import { join, resolve } from 'node:path';
import type { MessageQuery, NarrowTerm } from '@app/application';
import { openSqlite, SqliteUserMessageStore } from '@app/infrastructure';
import { fmtNum, intArg, now, parseArgs, printRows, type ResultRow, runMain } from './support';

async function main() {
  const args = parseArgs();
  if (typeof args['data-dir'] !== 'string') throw new Error('--data-dir DIR (a directory built by bench/history-scale.ts) is required');
  const userId = intArg(args, 'user-id', 500);
  const runs = intArg(args, 'runs', 10);
  const db = openSqlite(join(resolve(args['data-dir']), 'read-models.sqlite'));
  const store = new SqliteUserMessageStore(db, { compactSynchronously: true });
  try {
    await store.prepare();
    const realmId = (db.prepare('SELECT realm_id FROM um_messages ORDER BY id DESC LIMIT 1').get() as { realm_id: number }).realm_id;
    const streamId = (db.prepare('SELECT stream_id FROM um_messages WHERE stream_id IS NOT NULL ORDER BY id DESC LIMIT 1').get() as { stream_id: number }).stream_id;
    const ownStream = (await store.findMessages({ realmId, userId, scope: 'user', terms: [] }, { direction: 'older', fromId: Number.MAX_SAFE_INTEGER, limit: 1 }))[0];
    const channel = ownStream === undefined ? streamId : ((await store.locationsOf([ownStream.id])).get(ownStream.id)?.streamId ?? streamId);
    const term = (t: NarrowTerm) => t;
    const narrow = (terms: NarrowTerm[], direction: 'older' | 'newer' = 'older') => () =>
      store.findMessages({ realmId, userId, scope: 'user', terms } satisfies MessageQuery, { direction, fromId: direction === 'older' ? Number.MAX_SAFE_INTEGER : 0, limit: 100 });
    const newest = await store.maxMessageId(realmId, userId);
    const reads: [string, () => Promise<unknown>][] = [
      ['newest 100, all messages', narrow([])],
      [`newest 100, channel ${channel}`, narrow([term({ kind: 'stream', streamId: channel, negated: false })])],
      ['newest 100, is:unread', narrow([term({ kind: 'flags', mask: 1, set: 'none', negated: false })])],
      ['oldest 100, is:unread', narrow([term({ kind: 'flags', mask: 1, set: 'none', negated: false })], 'newer')],
      ['newest 100, search "message"', narrow([term({ kind: 'search', words: ['message'], phrases: [], negated: false })])],
      ['unreadCounts', () => store.unreadCounts(userId)],
      ['unreadMessages (up to 50,000)', () => store.unreadMessages(userId, 50_000)],
      ['flagsFor 100 newest ids', () => store.flagsFor(userId, Array.from({ length: 100 }, (_, i) => (newest ?? 0) - i))],
    ];
    const unread = await store.unreadCounts(userId);
    console.error(`user ${userId}: ${unread.total} unread, newest message ${newest}`);
    const rows: ResultRow[] = [];
    for (const [name, read] of reads) {
      await read();
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = now();
        await read();
        times.push(now() - t0);
      }
      times.sort((a, b) => a - b);
      rows.push({ metric: name, value: times[Math.floor(times.length / 2)] * 1000, unit: 'µs', detail: `min ${fmtNum(times[0], 2)} ms, max ${fmtNum(times[times.length - 1], 2)} ms` });
    }
    printRows(`per-user store reads, user ${userId} (${unread.total} unread), median of ${runs}`, rows);
  } finally {
    await store.close();
    db.close();
  }
}

runMain(main);
