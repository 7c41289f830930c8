import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import {
  CredentialVault,
  CREDENTIALS_MIGRATED_MARK,
  type CredentialMigrationOptions,
  type CredentialStorePort,
  isLegacySecretEvent,
  LEGACY_SECRET_TYPES,
  type LegacyCredentialEvent,
  type LegacyCredentialLog,
  migrateCredentials,
  type RandomPort,
  type RecordedEvent,
  type RewrittenEvent,
} from '@app/application';
import { openSqlite } from './sqlite';

/**
 * Read models whose documents held secrets, by collection: their documents are deleted and their
 * checkpoints (the old projections' and the current one's) too, so that the current projection
 * replays the log into an empty collection at the next start. A database holds such documents
 * when it has one of the `old` checkpoints (the credentials projection before v2: API keys and
 * password hashes; the push registrations before v3) and, where `oldWhere` says which documents
 * held a secret, one such document (push registrations with legacy tokens; `email_changes`, whose
 * name did not change, keyed by the confirmation key itself before the digest).
 */
export const SECRET_READ_MODELS: { collection: string; old: string[]; oldWhere?: string; checkpoints: string[] }[] = [
  { collection: 'credentials', old: ['credentials'], checkpoints: ['credentials', 'credentials.v2'] },
  {
    collection: 'push_registrations',
    old: ['push_registrations', 'push_registrations.v2'],
    oldWhere: "json_array_length(doc, '$.legacy_tokens') > 0",
    checkpoints: ['push_registrations', 'push_registrations.v2', 'push_registrations.v3'],
  },
  { collection: 'email_changes', old: [], oldWhere: "json_extract(doc, '$.token') IS NOT NULL", checkpoints: ['email_changes'] },
];

/** Whether a read-model database holds documents of `model` written with secrets. */
function holdsOldDocuments(db: Database.Database, model: (typeof SECRET_READ_MODELS)[number]): boolean {
  const hasCheckpoint = (name: string) => tableExists(db, 'checkpoints') && db.prepare('SELECT 1 FROM checkpoints WHERE name = ?').get(name) !== undefined;
  if (model.old.length > 0 && !model.old.some(hasCheckpoint)) return false;
  if (!model.oldWhere) return true;
  return tableExists(db, `rm_${model.collection}`) && db.prepare(`SELECT 1 FROM rm_${model.collection} WHERE ${model.oldWhere} LIMIT 1`).get() !== undefined;
}

/** Snapshots of deciders whose state held secrets (the push devices' before version 3, with push keys and tokens). */
const SECRET_SNAPSHOTS = ['push-devices'];

const tableExists = (db: Database.Database, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

/**
 * Writes the WAL back into the database and truncates it to nothing, then VACUUMs (the file is
 * rebuilt: no free page keeps an old row) and truncates the WAL again (VACUUM wrote through it).
 */
export function vacuumCompletely(db: Database.Database): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/**
 * The embedded log's side of the credential migration: `events.sqlite`'s rows rewritten in
 * place (same position, id, stream and revision; the payload without its secrets and the type's
 * current `schemaVersion`), then the read models' copies of the documents that held secrets
 * dropped (their projections replay the log at the next start), the push devices' snapshots
 * deleted, and every database VACUUMed, so that the secrets are gone from free pages and WAL files too.
 */
export class SqliteLegacyCredentialLog implements LegacyCredentialLog {
  constructor(
    private readonly events: Database.Database,
    private readonly dataDir: string,
  ) {}

  async scan(cursor: string | undefined, limit: number): Promise<{ events: LegacyCredentialEvent[]; next: string | undefined }> {
    if (!tableExists(this.events, 'events')) return { events: [], next: undefined };
    const types = LEGACY_SECRET_TYPES.map(() => '?').join(', ');
    const rows = this.events
      .prepare(`SELECT position, event_id, stream_id, type, data FROM events WHERE position > ? AND type IN (${types}) ORDER BY position LIMIT ?`)
      .all(Number(cursor ?? 0), ...LEGACY_SECRET_TYPES, limit) as { position: number; event_id: string; stream_id: string; type: string; data: string }[];
    const events = rows
      .map((row) => ({ id: row.event_id, streamId: row.stream_id, type: row.type, data: JSON.parse(row.data) as Record<string, unknown> }))
      .filter((event) => isLegacySecretEvent(event.type, event.data));
    return { events, next: rows.length < limit ? undefined : String(rows[rows.length - 1].position) };
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const rows = this.events
      .prepare('SELECT position, event_id, stream_id, revision, type, data, metadata, recorded_at FROM events WHERE stream_id = ? ORDER BY revision')
      .all(streamId) as { position: number; event_id: string; stream_id: string; revision: number; type: string; data: string; metadata: string; recorded_at: string }[];
    return rows.map((row) => ({
      id: row.event_id, streamId: row.stream_id, revision: BigInt(row.revision), position: BigInt(row.position), type: row.type,
      data: JSON.parse(row.data), metadata: JSON.parse(row.metadata), recordedAt: row.recorded_at,
    }));
  }

  async rewrite(events: RewrittenEvent[]): Promise<void> {
    const update = this.events.prepare("UPDATE events SET data = ?, metadata = json_set(metadata, '$.schemaVersion', ?) WHERE event_id = ?");
    this.events.transaction(() => {
      for (const { event, data, schemaVersion } of events) update.run(JSON.stringify(data), schemaVersion, event.id);
    })();
  }

  async finish(): Promise<void> {
    for (const file of readModelFiles(this.dataDir)) {
      const db = openSqlite(join(this.dataDir, file));
      try {
        for (const model of SECRET_READ_MODELS) {
          const { collection, checkpoints } = model;
          // email_changes (whose name did not change) is rebuilt only when it holds documents of before the digest.
          if (model.old.length === 0 && !holdsOldDocuments(db, model)) continue;
          // The read store keeps a collection in table rm_<collection>.
          if (tableExists(db, `rm_${collection}`)) db.exec(`DELETE FROM rm_${collection}`);
          if (tableExists(db, 'checkpoints')) db.prepare(`DELETE FROM checkpoints WHERE name IN (${checkpoints.map(() => '?').join(', ')})`).run(...checkpoints);
        }
        vacuumCompletely(db);
      } finally {
        db.close();
      }
    }
    const snapshotsFile = join(this.dataDir, 'snapshots.sqlite');
    if (existsSync(snapshotsFile)) {
      const db = openSqlite(snapshotsFile);
      try {
        if (tableExists(db, 'snapshots')) db.prepare(`DELETE FROM snapshots WHERE decider IN (${SECRET_SNAPSHOTS.map(() => '?').join(', ')})`).run(...SECRET_SNAPSHOTS);
        vacuumCompletely(db);
      } finally {
        db.close();
      }
    }
    vacuumCompletely(this.events);
  }
}

/** The read-model databases of a data directory: read-models.sqlite and the blue/green copies. */
const readModelFiles = (dataDir: string): string[] =>
  existsSync(dataDir) ? readdirSync(dataDir).filter((name) => /^read-models.*\.sqlite$/.test(name)) : [];

/**
 * The embedded migration, as the boot and `migrate-credentials` run it: nothing when the
 * credential store says it is done; otherwise a scan of the log (quick on a new data directory,
 * where it finds nothing and VACUUMs nothing), the move, and the mark.
 */
export async function migrateEmbeddedCredentials(
  events: Database.Database,
  dataDir: string,
  store: CredentialStorePort,
  key: Buffer,
  random: RandomPort,
  options: CredentialMigrationOptions & { force?: boolean } = {},
): Promise<{ migrated: number; skipped: boolean }> {
  if (!options.force && (await store.mark(CREDENTIALS_MIGRATED_MARK)) !== null) return { migrated: 0, skipped: true };
  const log = new SqliteLegacyCredentialLog(events, dataDir);
  const quick = {
    ...log,
    scan: log.scan.bind(log),
    rewrite: log.rewrite.bind(log),
    readStream: log.readStream.bind(log),
    // A data directory without a single old event: no secret to scrub, no VACUUM to pay for.
    finish: async (migrated: number) => (migrated > 0 || hasOldCredentialDocuments(dataDir) ? log.finish() : undefined),
  };
  const { migrated } = await migrateCredentials(quick, new CredentialVault(store, key, random), store, options);
  return { migrated, skipped: false };
}

/** Whether a read-model database still holds documents written with secrets. */
function hasOldCredentialDocuments(dataDir: string): boolean {
  return readModelFiles(dataDir).some((file) => {
    const db = openSqlite(join(dataDir, file));
    try {
      return SECRET_READ_MODELS.some((model) => holdsOldDocuments(db, model));
    } finally {
      db.close();
    }
  });
}
