import { isSealedValue, type ProtectingEventStore, type RecordedEvent, sealDecision, valueAt } from '@app/application';
import type { EsdbEventStore } from './esdb-event-store';
import { derivedEventId, replaceEsdbStream, scavengeEsdb } from './esdb-stream-replacement';

/** Whether a stored event still holds a message text in clear. */
export const hasPlainText = (event: RecordedEvent): boolean =>
  (sealDecision(event.type) ?? []).some((f) => typeof valueAt(event.data, f.path) === 'string' && f.scope(event.data) !== null && !isSealedValue(valueAt(event.data, f.path)));

/**
 * The EventStoreDB side of the content migration (docs/security.md, "How erasure works",
 * "Existing data"): every stream holding an event with a message text in clear (`message-<id>`)
 * is replaced by sealed copies (replaceEsdbStream: copy, soft delete, copy back, tombstone), the
 * deletions' keys are scheduled as new ones are, the keys of messages deleted longer ago than the
 * delay are destroyed, and a scavenge removes the old events' bytes. Run offline
 * (`npm run cli -- migrate-credentials` with the servers stopped), then rebuild the read models.
 * Written against @eventstore/db-client 6.2's API; not run here (no EventStoreDB on this machine).
 */
export async function migrateEsdbContent(
  raw: EsdbEventStore,
  store: ProtectingEventStore,
  esdbUrl: string,
  log: (message: string) => void,
): Promise<{ sealed: number; destroyed: number }> {
  const streams = new Set<string>();
  for (let after: bigint | undefined; ; ) {
    const page = await raw.readAll({ after, maxCount: 1000 });
    if (page.length === 0) break;
    for (const event of page) if (hasPlainText(event)) streams.add(event.streamId);
    after = page[page.length - 1].position;
  }
  let sealed = 0;
  for (const stream of streams) {
    const replaced = await replaceEsdbStream(raw, stream, {
      suffix: 'content-migration',
      needsCopy: hasPlainText,
      copyOf: async (events) => {
        await store.recordDeletions(events);
        const sealedEvents = await store.sealed(events);
        return sealedEvents.map((e) => ({ id: derivedEventId('content-sealed', e.id), type: e.type, data: e.data, metadata: { ...e.metadata, copiedFrom: e.id } }));
      },
    });
    if (replaced > 0) log(`replaced ${stream} (${replaced} events) with its message texts sealed`);
    sealed += replaced;
  }
  const destroyed = await store.purge();
  if (streams.size > 0) await scavengeEsdb(esdbUrl, log);
  return { sealed, destroyed };
}
