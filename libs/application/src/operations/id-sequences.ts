import type { EventStorePort, GlobalPosition } from '../ports/event-store.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { collectIds } from './event-log-backup';

/**
 * Advances the id sequences past every id the log holds, reading only the events appended since
 * the last scan (the allocator keeps that position beside its sequences). Run at every boot,
 * before anything allocates: when the sequences' store was dropped or restored from an older
 * backup (MongoDB's `_sequences`, `ids.sqlite` beside EventStoreDB) while the log kept its events,
 * the scan starts over from the beginning and the next message, user, channel… never reuses an
 * id. On an unchanged store it reads nothing past the head.
 */
export async function advanceSequencesFromLog(
  events: EventStorePort,
  ids: IdAllocatorPort,
  options: { pageSize?: number } = {},
): Promise<{ scanned: number; maxima: Map<string, number>; through: GlobalPosition | undefined }> {
  const maxima = new Map<string, number>();
  const from = await ids.logScannedThrough();
  const head = await events.headPosition();
  if (head === undefined || (from !== undefined && from >= head)) return { scanned: 0, maxima, through: from };
  let after = from;
  let scanned = 0;
  for (;;) {
    const page = await events.readAll({ after, maxCount: options.pageSize ?? 5000 });
    if (page.length === 0) break;
    for (const event of page) collectIds(event.data, maxima);
    scanned += page.length;
    after = page[page.length - 1].position;
  }
  // The sequences first, then the mark: a crash in between scans those events again.
  for (const [sequence, max] of maxima) await ids.advanceTo(sequence, max);
  if (after !== undefined) await ids.markLogScanned(after);
  return { scanned, maxima, through: after };
}
