import { createHash } from 'node:crypto';
import { StreamDeletedError, StreamNotFoundError } from '@eventstore/db-client';
import type { EventToAppend, RecordedEvent } from '@app/application';
import type { EsdbEventStore } from './esdb-event-store';

/** Events per append: well under EventStoreDB's default MaxAppendSize (1 MiB). */
const APPEND_CHUNK = 200;

/** A UUID (v5 layout) derived from a name: every attempt of a migration sends the same ids (idempotent appends). */
export const derivedEventId = (namespace: string, oldId: string): string => {
  const hex = createHash('sha256').update(`${namespace}\u0000${oldId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** Every event of a stream; none for a stream that does not exist or was deleted. */
export async function readWhole(store: EsdbEventStore, stream: string): Promise<RecordedEvent[]> {
  try {
    return (await store.readStream(stream)).events;
  } catch (error) {
    if (error instanceof StreamDeletedError || error instanceof StreamNotFoundError) return [];
    throw error;
  }
}

async function appendAll(store: EsdbEventStore, stream: string, events: EventToAppend[]): Promise<void> {
  for (let i = 0; i < events.length; i += APPEND_CHUNK) {
    await store.appendToStream(stream, events.slice(i, i + APPEND_CHUNK), { expectedRevision: 'any' });
  }
}

/**
 * Replaces a stream's events by rewritten copies, the way EventStoreDB allows (its events cannot
 * be edited): 1. the copies go to `<stream>-<suffix>` (nothing is lost if the run stops); 2. the
 * stream is soft-deleted (`deleteStream`: its name stays writable, which the code and snapshots
 * rely on); 3. the copies are appended back under the name (revisions continue after the old
 * ones); 4. the temporary stream is tombstoned. Each step checks where an earlier run stopped. A
 * scavenge afterwards (scavengeEsdb) removes the deleted events' bytes from the chunks.
 * `copyOf` must derive the copy's id from the old one (derivedEventId). Answers whether it replaced anything.
 */
export async function replaceEsdbStream(
  store: EsdbEventStore,
  stream: string,
  options: { suffix: string; needsCopy: (event: RecordedEvent) => boolean; copyOf: (events: RecordedEvent[]) => Promise<EventToAppend[]> },
): Promise<number> {
  const temporary = `${stream}-${options.suffix}`;
  const current = await readWhole(store, stream);
  let copy = await readWhole(store, temporary);
  const copyIds = new Set(copy.map((e) => e.id));
  // The stream still holds its old events unless every event it holds came from the copy.
  const deleted = current.length > 0 && current.every((e) => copyIds.has(e.id));
  if (!deleted) {
    if (copy.length === 0 && !current.some(options.needsCopy)) return 0;
    await appendAll(store, temporary, await options.copyOf(current.slice(copy.length)));
    copy = await readWhole(store, temporary);
    await store.client.deleteStream(stream);
  }
  const present = deleted ? new Set(current.map((e) => e.id)) : new Set<string>();
  const events: EventToAppend[] = copy.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata as EventToAppend['metadata'] }));
  await appendAll(store, stream, events.filter((e) => !present.has(e.id)));
  await store.client.tombstoneStream(temporary);
  return events.length;
}

/** POST /admin/scavenge on the node (HTTP API, admin credentials from the connection string; @eventstore/db-client 6.x has no scavenge call). */
export async function scavengeEsdb(esdbUrl: string, log: (message: string) => void): Promise<void> {
  const url = new URL(esdbUrl.replace(/^esdb(\+discover)?:/, 'http:'));
  const tls = url.searchParams.get('tls') !== 'false';
  const base = `${tls ? 'https' : 'http'}://${url.host}`;
  const headers: Record<string, string> = {};
  if (url.username) headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  try {
    const response = await fetch(`${base}/admin/scavenge`, { method: 'POST', headers });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    log(`scavenge started on ${base}: the deleted events leave the chunks when it completes (follow it in the node's UI or logs)`);
  } catch (error) {
    log(`could not start a scavenge (${(error as Error).message}): start one yourself, e.g. curl -X POST -u admin:<password> ${base}/admin/scavenge`);
  }
}
