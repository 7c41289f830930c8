import type Database from 'better-sqlite3';
import { CONTENT_PROTECTION, type ProtectingEventStore } from '@app/application';
import { vacuumCompletely } from './sqlite-credential-migration';

/** Set in the content-key store once every row of the log is sealed. */
export const CONTENT_SEALED_MARK = 'content-sealed';
/** Where a migration that stopped halfway goes on from (a position of events.sqlite). */
export const CONTENT_MIGRATION_CURSOR = 'content-migration-cursor';

const SEALED_TYPES = Object.entries(CONTENT_PROTECTION).filter(([, decision]) => 'seal' in decision).map(([type]) => type);

type Row = { position: number; type: string; data: string };

/**
 * Seals the message texts of a log written before the sealing (docs/security.md, "How erasure
 * works", "Existing data"): each row of a type CONTENT_PROTECTION seals is rewritten in place
 * (same position, id, stream, revision; its texts sealed with their message's and topic's keys),
 * in log order and in batches, each deletion scheduling its keys as a new one does; then the keys
 * of messages deleted longer ago than ARCHIVED_DATA_VACUUMING_DELAY_DAYS are destroyed (they are
 * shredded at once), and `events.sqlite` is VACUUMed between two `wal_checkpoint(TRUNCATE)`s so
 * that the old plain texts leave its free pages and WAL.
 *
 * Resumable: the cursor (in the content-key store) moves after each batch's rows are written; a
 * run killed anywhere repeats at most one batch, whose rows are sealed already (sealing skips
 * sealed fields) and whose deletions' bookkeeping is idempotent. The completion mark is set last.
 */
export async function migrateEmbeddedContent(
  events: Database.Database,
  store: ProtectingEventStore,
  options: { force?: boolean; batch?: number; now?: Date; onBatch?: (sealed: number) => void; stopAfterBatches?: number } = {},
): Promise<{ sealed: number; destroyed: number; skipped: boolean }> {
  const keys = store.keys.store;
  if (!options.force && (await keys.mark(CONTENT_SEALED_MARK)) !== null) return { sealed: 0, destroyed: 0, skipped: true };
  const hasEvents = events.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").get() !== undefined;
  const batch = options.batch ?? 500;
  const select = events.prepare<[number, ...string[]], Row>(
    `SELECT position, type, data FROM events WHERE position > ? AND type IN (${SEALED_TYPES.map(() => '?').join(', ')}) ORDER BY position LIMIT ${batch}`,
  );
  const update = events.prepare('UPDATE events SET data = ? WHERE position = ?');
  let cursor = options.force ? 0 : Number((await keys.mark(CONTENT_MIGRATION_CURSOR)) ?? 0);
  let sealed = 0;
  let batches = 0;
  while (hasEvents) {
    const rows = select.all(cursor, ...SEALED_TYPES);
    if (rows.length === 0) break;
    const parsed = rows.map((row) => ({ position: row.position, type: row.type, data: JSON.parse(row.data) as object }));
    const rewritten = await store.sealed(parsed);
    const changed = rewritten.filter((event, i) => event !== parsed[i] && JSON.stringify(event.data) !== rows[i].data);
    events.transaction(() => {
      for (const event of changed) update.run(JSON.stringify(event.data), event.position);
    })();
    await store.recordDeletions(parsed);
    cursor = rows[rows.length - 1].position;
    await keys.setMark(CONTENT_MIGRATION_CURSOR, String(cursor));
    sealed += changed.length;
    options.onBatch?.(sealed);
    if (options.stopAfterBatches !== undefined && ++batches >= options.stopAfterBatches) throw new Error(`content migration stopped after ${batches} batches (test)`);
  }
  // Messages deleted longer ago than the delay: shredded now.
  const destroyed = await store.purge(options.now);
  if (sealed > 0) vacuumCompletely(events);
  await keys.setMark(CONTENT_SEALED_MARK, new Date().toISOString());
  return { sealed, destroyed, skipped: false };
}
