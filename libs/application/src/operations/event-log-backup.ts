import { createReadStream, createWriteStream } from 'node:fs';
import { OWNER_ONLY_FILE_MODE, tighten } from '../shared/owner-only-files';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { EventStorePort, RecordedEvent } from '../ports/event-store.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { rawEventStore } from '../shared/event-upcasting';
import { ID_SEQUENCES } from '../areas';

/**
 * Backup and restore of the event log as NDJSON: one event a line, in global order. The log is
 * the installation's whole state (read models are rebuilt from it), so this is also how an
 * embedded installation moves onto the servers adapter set: export from one, import into the other.
 */
export type ExportedEvent = {
  streamId: string;
  revision: string;
  id: string;
  type: string;
  data: object;
  metadata: object;
  recordedAt: string;
};

export type BackupProgress = (done: number) => void;

const toLine = (e: RecordedEvent): string =>
  JSON.stringify({ streamId: e.streamId, revision: e.revision.toString(), id: e.id, type: e.type, data: e.data, metadata: e.metadata, recordedAt: e.recordedAt } satisfies ExportedEvent);

/** Writes every event of the log to `file`; returns how many. */
export async function exportEventLog(live: EventStorePort, file: string, progress: BackupProgress = () => undefined): Promise<number> {
  // Verbatim, each event at the schema version it was written with (upcast again when read back).
  const store = rawEventStore(live);
  // The whole log: owner-only, as the data directory (an existing file is tightened first).
  tighten(file, OWNER_ONLY_FILE_MODE);
  const out = createWriteStream(file, { encoding: 'utf8', mode: OWNER_ONLY_FILE_MODE });
  let after: bigint | undefined;
  let count = 0;
  try {
    for (;;) {
      const page = await store.readAll({ after, maxCount: 5000 });
      if (page.length === 0) break;
      for (const event of page) {
        if (!out.write(toLine(event) + '\n')) await once(out, 'drain');
      }
      count += page.length;
      after = page[page.length - 1].position;
      progress(count);
    }
  } finally {
    out.end();
    await once(out, 'finish');
  }
  return count;
}

export class ImportError extends Error {}

/**
 * EventStoreDB refuses an append larger than its MaxAppendSize (1 MiB by default:
 * "maximum-append-size-exceeded"); an import batch stays well under it, at half, which leaves room
 * for the per-event framing the server counts as well.
 */
export const MAX_IMPORT_APPEND_BYTES = 512 * 1024;
/** Events of one append at most (a bound on the request, whatever their size). */
export const MAX_IMPORT_APPEND_EVENTS = 500;

/** What an exported event weighs in an append: its JSON data and metadata, its type and id. */
export const appendBytesOf = (e: ExportedEvent): number =>
  Buffer.byteLength(JSON.stringify(e.data ?? {})) + Buffer.byteLength(JSON.stringify(e.metadata ?? {})) + Buffer.byteLength(e.type) + 64;

/**
 * Appends the events of an export to an empty store, stream by stream at the revisions they had,
 * keeping their ids (so an interrupted import can be rerun: the events already there are
 * recognised as the same appends). Consecutive events of one stream go in one append.
 */
export async function importEventLog(
  live: EventStorePort,
  file: string,
  progress: BackupProgress = () => undefined,
  ids?: IdAllocatorPort,
  limits: { maxBytes?: number; maxEvents?: number } = {},
): Promise<number> {
  const maxBytes = limits.maxBytes ?? MAX_IMPORT_APPEND_BYTES;
  const maxEvents = limits.maxEvents ?? MAX_IMPORT_APPEND_EVENTS;
  const store = rawEventStore(live);
  const maxima = new Map<string, number>();
  if ((await store.headPosition()) !== undefined) {
    const first = await store.readAll({ maxCount: 1 });
    if (first.length > 0) throw new ImportError('The target event store is not empty; import only into an empty store.');
  }
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let pending: ExportedEvent[] = [];
  let pendingBytes = 0;
  let count = 0;
  let lineNumber = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const first = BigInt(pending[0].revision);
    await store.appendToStream(
      pending[0].streamId,
      pending.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata as never })),
      { expectedRevision: first === 0n ? 'no_stream' : first - 1n },
    );
    count += pending.length;
    progress(count);
    pending = [];
    pendingBytes = 0;
  };
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === '') continue;
    let event: ExportedEvent;
    try {
      event = JSON.parse(line) as ExportedEvent;
    } catch {
      throw new ImportError(`line ${lineNumber}: not valid JSON`);
    }
    if (typeof event.streamId !== 'string' || typeof event.type !== 'string' || typeof event.id !== 'string' || !/^\d+$/.test(String(event.revision))) {
      throw new ImportError(`line ${lineNumber}: not an exported event`);
    }
    const last = pending[pending.length - 1];
    const continues = last && last.streamId === event.streamId && BigInt(last.revision) + 1n === BigInt(event.revision);
    // Bounded by bytes as well as by count: one stream's run of large events (a long message
    // history, big custom profile data) would otherwise make one append over EventStoreDB's limit.
    // An event that alone exceeds the bound goes in an append of its own.
    const bytes = appendBytesOf(event);
    if (!continues || pending.length >= maxEvents || pendingBytes + bytes > maxBytes) await flush();
    pending.push(event);
    pendingBytes += bytes;
    collectIds(event.data, maxima);
  }
  await flush();
  if (ids) await advanceSequences(ids, maxima);
  return count;
}

/**
 * The largest id of each sequence anywhere in an event's payload (nested lists included), read
 * from the fields the areas declare (their `idSequences`, ID_SEQUENCES in areas.ts). After an
 * import the target's sequences must continue above the ids the log already holds, or the next
 * message, user, channel… would reuse one.
 */
export function collectIds(value: unknown, maxima: Map<string, number>, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectIds(item, maxima, depth + 1);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const sequence = ID_SEQUENCES.get(key);
    if (sequence && typeof v === 'number') {
      const n = v - (sequence.offset ?? 0);
      if (Number.isSafeInteger(n) && n > (maxima.get(sequence.sequence) ?? 0)) maxima.set(sequence.sequence, n);
    } else if (typeof v === 'object') collectIds(v, maxima, depth + 1);
  }
}

/** Moves each sequence to at least the largest imported id (allocating never goes backwards). */
export async function advanceSequences(ids: IdAllocatorPort, maxima: Map<string, number>): Promise<void> {
  for (const [sequence, max] of maxima) await ids.advanceTo(sequence, max);
}
