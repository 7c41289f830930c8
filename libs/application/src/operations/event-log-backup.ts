import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { EventStorePort, RecordedEvent } from '../ports/event-store.port';

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
export async function exportEventLog(store: EventStorePort, file: string, progress: BackupProgress = () => undefined): Promise<number> {
  const out = createWriteStream(file, { encoding: 'utf8' });
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
 * Appends the events of an export to an empty store, stream by stream at the revisions they had,
 * keeping their ids (so an interrupted import can be rerun: the events already there are
 * recognised as the same appends). Consecutive events of one stream go in one append.
 */
export async function importEventLog(store: EventStorePort, file: string, progress: BackupProgress = () => undefined): Promise<number> {
  if ((await store.headPosition()) !== undefined) {
    const first = await store.readAll({ maxCount: 1 });
    if (first.length > 0) throw new ImportError('The target event store is not empty; import only into an empty store.');
  }
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let pending: ExportedEvent[] = [];
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
    if (!continues || pending.length >= 500) await flush();
    pending.push(event);
  }
  await flush();
  return count;
}
