import { type EventStorePort, ProtectingEventStore, rawEventStore, UpcastingEventStore } from '@app/application';
import type { AppConfig } from '@app/config';
import { SqliteEventStore } from './embedded/sqlite-event-store';
import { migrateEmbeddedContent } from './embedded/sqlite-content-migration';

export type ContentMigrationResult = { adapter: 'embedded' | 'servers'; sealed: number; destroyed: number; skipped: boolean };

/** The sealing layer under the application's event store. */
export function protectingLayerOf(store: EventStorePort): ProtectingEventStore {
  let current: EventStorePort = store;
  while (!(current instanceof ProtectingEventStore)) {
    if (!(current instanceof UpcastingEventStore)) throw new Error('the event store has no sealing layer');
    current = current.raw;
  }
  return current;
}

/**
 * The content step of `npm run cli -- migrate-credentials` (docs/security.md, "How erasure works",
 * "Existing data"): seals the message texts of a log written before the sealing. Embedded: rows
 * rewritten in place, then VACUUM (a boot does this by itself). EventStoreDB: the streams copied
 * sealed, the old ones deleted, a scavenge started (run with the servers stopped; then rebuild).
 */
export async function runContentMigration(deps: { eventStore: EventStorePort; config: AppConfig; log: (message: string) => void; force?: boolean }): Promise<ContentMigrationResult> {
  const protecting = protectingLayerOf(deps.eventStore);
  const raw = rawEventStore(deps.eventStore);
  if (raw instanceof SqliteEventStore) {
    return { adapter: 'embedded', ...(await migrateEmbeddedContent(raw.db, protecting, { force: deps.force, onBatch: (n) => deps.log(`sealed the texts of ${n} events`) })) };
  }
  const { EsdbEventStore } = await import('./eventstoredb/esdb-event-store');
  if (!(raw instanceof EsdbEventStore)) throw new Error('migrate-credentials: unknown event store');
  const { migrateEsdbContent } = await import('./eventstoredb/esdb-content-migration');
  return { adapter: 'servers', ...(await migrateEsdbContent(raw, protecting, deps.config.esdbUrl, deps.log)), skipped: false };
}
