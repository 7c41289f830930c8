import type { CredentialStorePort } from '../ports/credential-store.port';
import type { CredentialVault } from './credential-vault';
import { LEGACY_CREDENTIAL_TYPES, splitLegacyCredentials } from './legacy-credentials';

/** An event of the log that still carries a secret (schema version 1 of a credential event type). */
export type LegacyCredentialEvent = { id: string; streamId: string; type: string; data: Record<string, unknown> };

/**
 * The log's side of the credential migration, one per adapter set (libs/infrastructure):
 * SQLite rewrites the rows in place and VACUUMs; EventStoreDB copies the affected streams without
 * the secrets and deletes the old events (docs/security.md, "Migrating existing data").
 */
export interface LegacyCredentialLog {
  /**
   * Up to `limit` events after `cursor` (undefined: from the start) that still carry a secret, in
   * log order, and the cursor to continue from (undefined once the log is read to its end).
   */
  scan(cursor: string | undefined, limit: number): Promise<{ events: LegacyCredentialEvent[]; next: string | undefined }>;
  /** Puts these events' current shapes (no secret) in the log in place of theirs. */
  rewrite(events: { event: LegacyCredentialEvent; data: Record<string, unknown> }[]): Promise<void>;
  /** After the last batch: makes the old bytes unrecoverable and drops derived copies that held them. */
  finish(migrated: number): Promise<void>;
}

/** Set in the credential store once a migration has completed: boots skip the scan after that. */
export const CREDENTIALS_MIGRATED_MARK = 'legacy-credentials-migrated';

export type CredentialMigrationOptions = {
  batchSize?: number;
  /** After each batch is stored and rewritten (progress; a throw stops the run, which a rerun resumes). */
  onBatch?: (progress: { migrated: number }) => void | Promise<void>;
  /** Only copy the secrets into the store (the log is left as it is): what a servers boot does. */
  storeOnly?: boolean;
};

export const isLegacyCredentialEvent = (type: string, data: unknown): boolean =>
  (LEGACY_CREDENTIAL_TYPES as readonly string[]).includes(type) &&
  typeof data === 'object' &&
  data !== null &&
  ('apiKey' in data || 'passwordHash' in data);

/**
 * Moves the secrets of events written before issue 35 out of the log: each one's key and hash go
 * into the credential store under the names the upcaster gives them (`api_key:<event id>`,
 * `password:<event id>`), then the event is rewritten without them. Each step is idempotent (an
 * entry already stored stays; a rewritten event no longer matches the scan), so a run stopped at
 * any point is completed by running it again. The mark is set only at the very end.
 */
export async function migrateCredentials(
  log: LegacyCredentialLog,
  vault: CredentialVault,
  store: CredentialStorePort,
  options: CredentialMigrationOptions = {},
): Promise<{ migrated: number }> {
  const batchSize = options.batchSize ?? 500;
  let migrated = 0;
  let cursor: string | undefined;
  do {
    const { events, next } = await log.scan(cursor, batchSize);
    cursor = next;
    if (events.length === 0) continue;
    const rewritten = [];
    for (const event of events) {
      const { data, secrets } = splitLegacyCredentials(event.id, event.data);
      const realmId = Number(event.data.realmId);
      const userId = Number(event.data.userId);
      for (const secret of secrets) {
        if (secret.kind === 'api_key') await vault.storeApiKey(realmId, userId, secret.secret, secret.id);
        else await vault.storePasswordHash(realmId, userId, secret.secret, secret.id);
      }
      rewritten.push({ event, data });
    }
    if (!options.storeOnly) await log.rewrite(rewritten);
    migrated += events.length;
    await options.onBatch?.({ migrated });
  } while (cursor !== undefined);
  if (!options.storeOnly) {
    await log.finish(migrated);
    await store.setMark(CREDENTIALS_MIGRATED_MARK, new Date().toISOString());
  }
  return { migrated };
}
