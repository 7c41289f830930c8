import type { GlobalPosition } from './event-store.port';
import type { ReadStoreBatch, WriteOperation } from './read-store.port';
import type { PositionedChanges, UserMessageChange } from './user-message-store.port';

/**
 * Bounds a store puts on the projector's work, for stores whose transactions have limits of their
 * own. MongoDB aborts a transaction that runs past `transactionLifetimeLimitSeconds` (60 s by
 * default) and advises modifying no more than about 1,000 documents in one ("Production
 * Considerations" of its transactions manual); a catch-up that commits 100,000 events' worth of
 * documents at once would be aborted, and retried the same way forever.
 */
export type StoreLimits = {
  /** Document writes per transaction: a commit is cut into transactions of at most this many. */
  maxWritesPerTransaction: number;
  /** Events per projector batch (read from the log, and handed to a bulk projection at once). */
  maxBatchEvents: number;
  /** Events whose documents a catching-up projector holds back before it commits (write-behind). */
  maxWriteBehindEvents: number;
};

/** The MongoDB adapters' limits: transactions of at most 1,000 writes, batches of 1,000 events. */
export const MONGODB_LIMITS: StoreLimits = { maxWritesPerTransaction: 1000, maxBatchEvents: 1000, maxWriteBehindEvents: 10_000 };

/**
 * Cuts a read-store batch into batches of at most `maxWrites` writes, applied in order, each in a
 * transaction of its own; the checkpoints go with the last one. A crash between two of them
 * leaves documents written at positions past their projection's checkpoint, which is safe: the
 * replay from the checkpoint skips, per document, the events at or below its stored position (a
 * store never replaces a document written at a later position). Deletes go last, with the
 * checkpoints where they fit, so a replay never evolves a document from "missing" that was
 * deleted ahead of its checkpoint (as far as possible: more deletes than one chunk holds are
 * spread over the last chunks).
 */
export function chunkReadStoreBatch(batch: ReadStoreBatch, maxWrites: number): ReadStoreBatch[] {
  if (!(maxWrites >= 1)) throw new Error('maxWrites must be at least 1');
  const total = batch.writes.reduce((n, w) => n + w.ops.length, 0);
  if (total <= maxWrites) return [batch];
  const ordered: { collection: string; op: WriteOperation }[] = [];
  for (const kind of ['put', 'delete'] as const) {
    for (const { collection, ops } of batch.writes) for (const op of ops) if (op.type === kind) ordered.push({ collection, op });
  }
  const chunks: ReadStoreBatch[] = [];
  for (let start = 0; start < ordered.length; start += maxWrites) {
    const writes: ReadStoreBatch['writes'] = [];
    for (const { collection, op } of ordered.slice(start, start + maxWrites)) {
      const last = writes[writes.length - 1];
      if (last && last.collection === collection) last.ops.push(op);
      else writes.push({ collection, ops: [op] });
    }
    chunks.push({ writes, checkpoints: [] });
  }
  chunks[chunks.length - 1].checkpoints = batch.checkpoints;
  return chunks;
}

/** Roughly how many documents one change writes (the per-user rows and index entries it touches). */
export function changeWeight(change: UserMessageChange): number {
  switch (change.type) {
    case 'message-added':
      return 1 + change.rows.length;
    case 'flags-changed':
      return 1 + (change.selector.createHistorical?.length ?? 0);
    case 'messages-moved':
      return change.messageIds.length * (2 + (change.addRows?.userIds.length ?? 0));
    case 'message-edited':
      return 1 + change.mentionedUserIds.length + change.topicWildcardMentionedUserIds.length;
    case 'reactions-counted':
      return 1;
    case 'messages-deleted':
      return change.messageIds.length;
  }
}

/**
 * Cuts a bulk projection's changes into consecutive groups of at most `maxWrites` documents (by
 * changeWeight), each to be applied in a transaction of its own with the checkpoint at its last
 * event's position (the last group: at `upTo`, the batch's end). A crash between groups resumes
 * after the last committed one. One event is never split: an event heavier than the bound is a
 * group of its own.
 */
export function chunkPositionedChanges(
  batches: PositionedChanges[],
  upTo: GlobalPosition,
  maxWrites: number,
): { batches: PositionedChanges[]; checkpoint: GlobalPosition }[] {
  if (!(maxWrites >= 1)) throw new Error('maxWrites must be at least 1');
  const groups: { batches: PositionedChanges[]; checkpoint: GlobalPosition }[] = [];
  let current: PositionedChanges[] = [];
  let weight = 0;
  for (const batch of batches) {
    const w = batch.changes.reduce((n, c) => n + changeWeight(c), 0);
    if (current.length > 0 && weight + w > maxWrites) {
      groups.push({ batches: current, checkpoint: current[current.length - 1].position });
      current = [];
      weight = 0;
    }
    current.push(batch);
    weight += w;
  }
  groups.push({ batches: current, checkpoint: upTo });
  return groups;
}
