import type { PushDeviceEvent } from '@app/domain';
import type { CredentialStorePort } from '../ports/credential-store.port';
import type { RecordedEvent } from '../ports/event-store.port';
import { isLegacyPushEvent, LEGACY_PUSH_TYPES, livePushEntries, splitLegacyPushSecrets } from '../push-devices/legacy-push-secrets';
import type { CredentialVault } from '../shared/credential-vault';
import type { LegacySecretSplit } from '../shared/legacy-secrets';
import { LEGACY_CREDENTIAL_TYPES, splitLegacyCredentials } from '../users/legacy-credentials';
import { emailChangeConfirmedDigest, emailChangeRequestedDigests, upcasterRegistry } from './upcasters';

/** An event of the log that still carries a secret (schema version 1 of a type whose secrets have left the log). */
export type LegacyCredentialEvent = { id: string; streamId: string; type: string; data: Record<string, unknown> };

/** An old event's replacement: its current shape, and the schema version that shape is. */
export type RewrittenEvent = { event: LegacyCredentialEvent; data: Record<string, unknown>; schemaVersion: number };

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
  rewrite(events: RewrittenEvent[]): Promise<void>;
  /** Every event of a stream, in order, as stored (the migration upcasts them). */
  readStream(streamId: string): Promise<RecordedEvent[]>;
  /** After the last batch: makes the old bytes unrecoverable and drops derived copies that held them. */
  finish(migrated: number): Promise<void>;
}

/**
 * Set in the credential store once a migration has completed: boots skip the scan after that. The
 * name changed when push secrets and old email-change keys joined API keys and password hashes
 * (`legacy-credentials-migrated` marked a store whose log may still hold those), so a data
 * directory migrated before is scanned once more.
 */
export const CREDENTIALS_MIGRATED_MARK = 'legacy-secrets-migrated';

export type CredentialMigrationOptions = {
  batchSize?: number;
  /** After each batch is stored and rewritten (progress; a throw stops the run, which a rerun resumes). */
  onBatch?: (progress: { migrated: number }) => void | Promise<void>;
  /** Only copy the secrets into the store (the log is left as it is): what a servers boot does. */
  storeOnly?: boolean;
};

/** The email-change events of version 1 held the confirmation key itself (`token`, `revokedTokens`); version 2 its digest. */
const LEGACY_EMAIL_CHANGE_TYPES = ['EmailChangeRequested', 'EmailChangeConfirmed'] as const;

/** Every event type whose version 1 held a secret. */
export const LEGACY_SECRET_TYPES: readonly string[] = [...LEGACY_CREDENTIAL_TYPES, ...LEGACY_PUSH_TYPES, ...LEGACY_EMAIL_CHANGE_TYPES];

const isObject = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null;

/** Whether an event still carries a secret: an API key, a password hash, a push secret, an email confirmation key. */
export function isLegacySecretEvent(type: string, data: unknown): boolean {
  if (!isObject(data)) return false;
  if ((LEGACY_CREDENTIAL_TYPES as readonly string[]).includes(type)) return 'apiKey' in data || 'passwordHash' in data;
  if ((LEGACY_EMAIL_CHANGE_TYPES as readonly string[]).includes(type)) return 'token' in data || 'revokedTokens' in data;
  return isLegacyPushEvent(type, data);
}

const registry = upcasterRegistry();

/**
 * An old event in its current shape, the secrets that go into the credential store (the email
 * confirmation keys go nowhere: the event keeps their digest, which is all a link needs), and the
 * schema version to stamp. An event without secrets comes back as it is.
 */
export function splitLegacySecrets(event: { id: string; type: string; data: Record<string, unknown> }): LegacySecretSplit & { schemaVersion: number } {
  const schemaVersion = registry.currentVersion(event.type);
  if (!isLegacySecretEvent(event.type, event.data)) return { data: event.data, secrets: [], schemaVersion };
  if ((LEGACY_CREDENTIAL_TYPES as readonly string[]).includes(event.type)) return { ...splitLegacyCredentials(event.id, event.data), schemaVersion };
  if (event.type === 'EmailChangeRequested') return { data: emailChangeRequestedDigests(event.data), secrets: [], schemaVersion };
  if (event.type === 'EmailChangeConfirmed') return { data: emailChangeConfirmedDigest(event.data), secrets: [], schemaVersion };
  return { ...splitLegacyPushSecrets(event.id, event.type, event.data), schemaVersion };
}

/**
 * Moves the secrets of events written before issue 35 out of the log: each one's key, hash or
 * push secret goes into the credential store under the name the upcaster gives it (`api_key:<event
 * id>`, `password:<event id>`, `push_key:<event id>`, …), then the event is rewritten without it
 * (an email-change event with its key's digest instead). Each step is idempotent (an entry already
 * stored stays; a rewritten event no longer matches the scan), so a run stopped at any point is
 * completed by running it again. The mark is set only at the very end.
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
    const rewritten: RewrittenEvent[] = [];
    const livePush = new Map<string, Set<string>>();
    for (const event of events) {
      const { data, secrets, schemaVersion } = splitLegacySecrets(event);
      const realmId = Number(event.data.realmId);
      const userId = Number(event.data.userId);
      if (isLegacyPushEvent(event.type, event.data) && !livePush.has(event.streamId)) {
        const stream = (await log.readStream(event.streamId)).map((e) => registry.upcast(e) as unknown as PushDeviceEvent);
        livePush.set(event.streamId, livePushEntries(stream));
      }
      for (const secret of secrets) {
        // A push secret replaced or removed before the migration is not kept.
        if (secret.kind.startsWith('push_') && !livePush.get(event.streamId)?.has(secret.id)) continue;
        if (secret.kind === 'api_key') await vault.storeApiKey(realmId, userId, secret.secret, secret.id);
        else if (secret.kind === 'password') await vault.storePasswordHash(realmId, userId, secret.secret, secret.id);
        else if (secret.kind !== 'invitation_key') await vault.storePushSecret(secret.kind, realmId, userId, secret.secret, secret.id);
      }
      rewritten.push({ event, data, schemaVersion });
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
