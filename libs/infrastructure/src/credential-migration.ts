import {
  type CredentialMigrationOptions,
  type CredentialStorePort,
  CredentialVault,
  CREDENTIALS_MIGRATED_MARK,
  type EventStorePort,
  migrateCredentials,
  rawEventStore,
} from '@app/application';
import type { AppConfig } from '@app/config';
import { SqliteEventStore } from './embedded/sqlite-event-store';
import { migrateEmbeddedCredentials } from './embedded/sqlite-credential-migration';
import { loadCredentialKey } from './system/credential-key';
import { CryptoRandom } from './system/crypto-random';

export type CredentialMigrationResult = { adapter: 'embedded' | 'servers'; migrated: number; skipped: boolean };

/**
 * `npm run cli -- migrate-credentials` (docs/security.md, "Migrating existing data"): moves the
 * API keys and password hashes of events written before issue 35 into the credential store and
 * removes them from the log, on the adapter set the configuration names. Embedded: rows rewritten
 * in place, then VACUUM (a boot does this by itself). EventStoreDB: the affected streams copied
 * without the secrets, the old ones deleted, a scavenge started; then rebuild the read models.
 */
export async function runCredentialMigration(deps: {
  eventStore: EventStorePort;
  store: CredentialStorePort;
  config: AppConfig;
  log: (message: string) => void;
  force?: boolean;
  onBatch?: CredentialMigrationOptions['onBatch'];
  /** Servers only: copy the secrets into the store and leave the log (what a servers boot does). */
  storeOnly?: boolean;
}): Promise<CredentialMigrationResult> {
  const raw = rawEventStore(deps.eventStore);
  const key = loadCredentialKey(deps.config);
  if (raw instanceof SqliteEventStore) {
    const done = await migrateEmbeddedCredentials(raw.db, deps.config.dataDir, deps.store, key, new CryptoRandom(), { force: deps.force, onBatch: deps.onBatch });
    return { adapter: 'embedded', ...done };
  }
  if (!deps.force && (await deps.store.mark(CREDENTIALS_MIGRATED_MARK)) !== null) return { adapter: 'servers', migrated: 0, skipped: true };
  const { EsdbEventStore } = await import('./eventstoredb/esdb-event-store');
  if (!(raw instanceof EsdbEventStore)) throw new Error('migrate-credentials: unknown event store');
  const { EsdbLegacyCredentialLog } = await import('./eventstoredb/esdb-credential-migration');
  const log = new EsdbLegacyCredentialLog(raw, deps.config.esdbUrl, deps.log);
  const vault = new CredentialVault(deps.store, key, new CryptoRandom());
  const { migrated } = await migrateCredentials(log, vault, deps.store, { onBatch: deps.onBatch, storeOnly: deps.storeOnly });
  return { adapter: 'servers', migrated, skipped: false };
}
