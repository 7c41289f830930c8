import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import {
  APP_CONFIG,
  CLOCK,
  secureDirectoryTree,
  type ClockPort,
  EVENT_STORE,
  type EventStorePort,
  ID_ALLOCATOR,
  type IdAllocatorPort,
  LOGGER,
  RANDOM,
  type RandomPort,
  READ_STORE,
  type ReadStorePort,
  USER_MESSAGE_STORE,
  type UserMessageStorePort,
  PRESENCE_STORE,
  type PresenceStorePort,
  BLOB_STORE,
  RATE_LIMIT_STORE,
  SCHEDULER,
  LIVE_READ_MODELS,
  type LiveReadModels,
  READ_MODEL_CHANGES,
  type ReadModelChangesPort,
  UpcastingEventStore,
  upcasterRegistry,
  METRICS,
  type MetricsPort,
  NO_METRICS,
  advanceSequencesFromLog,
  SNAPSHOT_STORE,
  STORAGE_SCRUBBER,
  type StorageScrubberPort,
  type SnapshotStorePort,
  MAIL_OUTBOX,
  MAIL_TRANSPORT,
  type MailOutboxPort,
  CREDENTIAL_STORE,
  CREDENTIAL_KEY,
  CREDENTIALS_MIGRATED_MARK,
  type CredentialStorePort,
  CONTENT_KEY_STORE,
  type ContentKeyStorePort,
  checkSealedLog,
  ContentKeys,
  ProtectingEventStore,
} from '@app/application';
import type { AppConfig } from '@app/config';
import type Database from 'better-sqlite3';
import { openSqlite } from './embedded/sqlite';
import { SqliteWalScrubber } from './embedded/sqlite-wal-scrubber';
import { NoStorageScrubbing } from './no-storage-scrubbing';
import { SqliteEventStore } from './embedded/sqlite-event-store';
import { SqliteIdAllocator } from './embedded/sqlite-id-allocator';
import { SqliteReadModelCopies } from './embedded/sqlite-read-model-copies';
import { ReadModelsBeingLoadedError } from './embedded/sqlite';
import { SqliteChangeWatcher } from './embedded/sqlite-change-watcher';
import { SqlitePresenceStore } from './embedded/sqlite-presence-store';
import { SqliteSnapshotStore } from './embedded/sqlite-snapshot-store';
import { SqliteMailOutbox } from './embedded/sqlite-mail-outbox';
import { openCredentialDatabase, SqliteCredentialStore } from './embedded/sqlite-credential-store';
import { loadCredentialKey } from './system/credential-key';
import { CONTENT_KEYS_FILE, openContentKeyDatabase, SqliteContentKeyStore } from './embedded/sqlite-content-key-store';
import { migrateEmbeddedCredentials, SECRET_READ_MODELS } from './embedded/sqlite-credential-migration';
import { migrateEmbeddedContent } from './embedded/sqlite-content-migration';
import { SystemClock } from './system/system-clock';
import { CryptoRandom } from './system/crypto-random';
import { createLogger, type Logger } from './system/logger';
import { PrometheusMetrics } from './system/prometheus-metrics';
import { blobStoreProvider } from './blob-store.provider';
import { rateLimitStoreProvider } from './rate-limit-store.provider';
import { schedulerProvider } from './scheduler.provider';
import { mailTransportProvider } from './mail-transport.provider';

export type Adapters = {
  eventStore: EventStorePort;
  readStore: ReadStorePort;
  idAllocator: IdAllocatorPort;
  /** Per-user message state, in the read store's database (it shares its checkpoints). */
  userMessageStore: UserMessageStorePort;
  /** The read models as switchable copies, for blue/green rebuilds (docs/operations.md). */
  liveReadModels: LiveReadModels;
  /** Users' presence, outside the log and the read models (docs/presence.md). */
  presenceStore: PresenceStorePort;
  /** Commits of other processes to the read models (what an API process without projectors waits on). */
  readModelChanges: ReadModelChangesPort;
  /** Deciders' snapshots, which bound a command's read of its stream (docs/operations.md, "Command reads and snapshots"). */
  snapshotStore: SnapshotStorePort;
  /** Outgoing mail waiting for (or past) its hand-off to the SMTP server (docs/email.md). */
  mailOutbox: MailOutboxPort;
  /** API keys and password hashes, sealed, outside the log and the read models (docs/security.md). */
  credentialStore: CredentialStorePort;
  /** Erased bytes out of the read models' and snapshots' files (docs/security.md, "Read models"). */
  storageScrubber: StorageScrubberPort;
  /** The keys sealing message texts in the log (docs/security.md, "How erasure works"). */
  contentKeyStore: ContentKeyStorePort;
  /** The event store's sealing layer: its `purge` destroys deleted messages' keys when due. */
  protectedEvents: ProtectingEventStore;
  close(): Promise<void>;
};

/**
 * An API process that leaves the projectors to a worker opens the embedded read models without
 * ever filling them itself; while the worker fills a new database from zero (the first start, an
 * imported log) it waits, however long the replay takes.
 */
async function openSharedSqliteReadModels(config: AppConfig, logger?: Logger): Promise<ReturnType<typeof SqliteReadModelCopies.openLive>> {
  let loggedAt = 0;
  for (;;) {
    try {
      return SqliteReadModelCopies.openLive(config.dataDir, config.sqliteSynchronous, { freshLoad: false });
    } catch (error) {
      if (!(error instanceof ReadModelsBeingLoadedError)) throw error;
      if (Date.now() - loggedAt >= 10_000) {
        loggedAt = Date.now();
        logger?.info({ detail: error.message }, 'waiting for the worker to load the read models');
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * The data directory owner-only before anything opens it (0700, files 0600: docs/security.md),
 * also when an older installation or a looser umask left it readable by other local accounts.
 */
function secureDataDirectory(dataDir: string, logger?: Logger): void {
  const changed = secureDirectoryTree(dataDir);
  if (changed > 0) logger?.warn({ dataDir, changed }, 'data directory was readable by other local accounts: made owner-only (0700, files 0600)');
}

/**
 * Opens the adapters the configuration names. Each port is chosen independently, so an
 * installation may keep, say, the embedded event store with the MongoDB read store.
 */
export type OpenAdaptersOptions = {
  /**
   * A server process (API, worker): before anything replays the log, open its oldest and newest
   * sealed events (checkSealedLog), and refuse to start (ContentKeyMissingError) when their keys are
   * not here. The CLI leaves it out: export-events and backups move the sealed log as it is.
   */
  checkSealedLog?: boolean;
};

export async function openAdapters(config: AppConfig, clock: ClockPort, metrics: MetricsPort = NO_METRICS, logger?: Logger, options: OpenAdaptersOptions = {}): Promise<Adapters> {
  secureDataDirectory(config.dataDir, logger);
  const sqlite = new Map<string, Database.Database>();
  const openEmbedded = (file: string) => {
    let db = sqlite.get(file);
    if (!db) {
      db = openSqlite(file === ':memory:' ? file : join(config.dataDir, file), config.sqliteSynchronous);
      sqlite.set(file, db);
    }
    return db;
  };
  // The servers adapters are loaded only when chosen, so an embedded installation never loads
  // the gRPC and MongoDB drivers.
  const watchers: SqliteChangeWatcher[] = [];
  const watch = (databases: ConstructorParameters<typeof SqliteChangeWatcher>[0], fallbackPollMs: number) => {
    const watcher = new SqliteChangeWatcher(databases, { fallbackPollMs });
    watchers.push(watcher);
    return watcher;
  };
  const openEmbeddedEvents = () => {
    const db = openEmbedded('events.sqlite');
    // Appends of the other processes on this data directory wake the subscriptions at once.
    const changes = watch([{ db, file: join(config.dataDir, 'events.sqlite') }], 100);
    // Under jest, the events live subscriptions share are frozen: a subscriber that changed one fails the tests.
    return new SqliteEventStore(db, { pollIntervalMs: 100, now: () => clock.now(), changes, freezeDelivered: process.env.JEST_WORKER_ID !== undefined });
  };
  const rawEvents =
    config.eventStoreDriver === 'servers'
      ? (await import('./eventstoredb/esdb-event-store')).EsdbEventStore.connect(config.esdbUrl)
      : openEmbeddedEvents();
  // Tests on shared servers (test:servers): this installation's streams only.
  const storedEvents = config.storeNamespace ? new (await import('./eventstoredb/namespaced-event-store')).NamespacedEventStore(rawEvents, config.storeNamespace) : rawEvents;
  let readStore: ReadStorePort;
  let idAllocator: IdAllocatorPort;
  let userMessageStore: UserMessageStorePort;
  let liveReadModels: LiveReadModels;
  let presenceStore: PresenceStorePort;
  let readModelChanges: ReadModelChangesPort;
  let snapshotStore: SnapshotStorePort;
  let mailOutbox: MailOutboxPort;
  let credentialStore: CredentialStorePort;
  let storageScrubber: StorageScrubberPort;
  let contentKeyStore: ContentKeyStorePort;
  if (config.readStoreDriver === 'servers') {
    const { MongoReadModelCopies } = await import('./mongodb/mongo-read-model-copies');
    const { MongoIdAllocator } = await import('./mongodb/mongo-id-allocator');
    // The live read models under their own names; opening finishes a blue/green switch a stopped
    // process left halfway and drops abandoned copies (docs/operations.md, servers mode). The
    // copies object owns the MongoClient (closed by liveReadModels.copies.close()).
    const mongo = await MongoReadModelCopies.openLive(config.mongodbUri, config.mongodbDb);
    liveReadModels = mongo;
    readStore = liveReadModels.readStore;
    idAllocator = new MongoIdAllocator(mongo.copies.db);
    userMessageStore = liveReadModels.userMessages.port;
    presenceStore = new (await import('./mongodb/mongo-presence-store')).MongoPresenceStore(mongo.copies.db);
    const { MongoCheckpointChanges } = await import('./mongodb/mongo-checkpoint-changes');
    readModelChanges = new MongoCheckpointChanges(mongo.copies.db, logger);
    // Snapshots beside the read models, in a collection the copies never touch.
    snapshotStore = new (await import('./mongodb/mongo-snapshot-store')).MongoSnapshotStore(mongo.copies.db);
    mailOutbox = new (await import('./mongodb/mongo-mail-outbox')).MongoMailOutbox(mongo.copies.db);
    credentialStore = new (await import('./mongodb/mongo-credential-store')).MongoCredentialStore(mongo.copies.db);
    storageScrubber = new NoStorageScrubbing();
    contentKeyStore = new (await import('./mongodb/mongo-content-key-store')).MongoContentKeyStore(mongo.copies.db);
  } else {
    // Its own file, owner-only (created 0600 before SQLite opens it).
    const credentialsDb = openCredentialDatabase(config.dataDir, config.sqliteSynchronous);
    sqlite.set('credentials.sqlite', credentialsDb);
    credentialStore = new SqliteCredentialStore(credentialsDb);
    // The keys that seal message texts in the log: their own file, owner-only (docs/security.md).
    const contentKeysDb = openContentKeyDatabase(config.dataDir, config.sqliteSynchronous);
    sqlite.set(CONTENT_KEYS_FILE, contentKeysDb);
    contentKeyStore = new SqliteContentKeyStore(contentKeysDb);
    // A data directory written before issue 35 has API keys and password hashes in its events
    // and read models: moved to the credential store and scrubbed (VACUUM) before anything reads
    // them. Once done, a mark in the store makes this a single lookup. The process that owns the
    // read models does it (an API process beside a worker leaves it to the worker).
    if (rawEvents instanceof SqliteEventStore && config.runProjectors) {
      const done = await migrateEmbeddedCredentials(rawEvents.db, config.dataDir, credentialStore, loadCredentialKey(config), new CryptoRandom());
      if (done.migrated > 0) logger?.warn({ events: done.migrated }, 'moved API keys, password hashes and push secrets out of the event log into the credential store (issue 35); older backups and exports still hold them');
    }
    // The read models live in one or more SQLite files (read-models.sqlite until a rebuild
    // switches to a fresh copy); the layout file names them.
    const sqliteCopies = config.runProjectors
      ? SqliteReadModelCopies.openLive(config.dataDir, config.sqliteSynchronous)
      : await openSharedSqliteReadModels(config, logger);
    liveReadModels = sqliteCopies;
    // The fallback check is a cheap `PRAGMA data_version`; change events are the main path.
    readModelChanges = watch(sqliteCopies.copies.databases(), 50);
    readStore = liveReadModels.readStore;
    // Ids live beside the events: both are the embedded installation's durable state.
    const sqliteIds = new SqliteIdAllocator(openEmbedded(config.eventStoreDriver === 'servers' ? 'ids.sqlite' : 'events.sqlite'));
    idAllocator = sqliteIds;
    // Ids and events on one connection: a send takes its id inside its append's transaction.
    if (rawEvents instanceof SqliteEventStore && rawEvents.db === sqliteIds.db) rawEvents.useIdSequences(sqliteIds);
    userMessageStore = liveReadModels.userMessages.port;
    presenceStore = new SqlitePresenceStore(openEmbedded('presence.sqlite'));
    const snapshotsDb = openEmbedded('snapshots.sqlite');
    snapshotStore = new SqliteSnapshotStore(snapshotsDb);
    // The read models' copies as they are at each scrub (a rebuild adds and drops some).
    storageScrubber = new SqliteWalScrubber(() => [...sqliteCopies.copies.databases().map((d) => d.db), snapshotsDb], (details, message) => logger?.warn(details, message));
    // Mails hold confirmation links: the file is created readable by its owner only (SQLite gives
    // its -wal and -shm files the same permissions).
    mkdirSync(config.dataDir, { recursive: true });
    const outboxFile = join(config.dataDir, 'mail-outbox.sqlite');
    closeSync(openSync(outboxFile, 'a', 0o600));
    chmodSync(outboxFile, 0o600);
    mailOutbox = new SqliteMailOutbox(openEmbedded('mail-outbox.sqlite'));
  }
  // Message texts sealed in the log (crypto-shredding, docs/security.md "How erasure works"), then
  // reads upcast to the current event shapes (upcasters see plain text); appends carry each type's
  // schema version.
  const contentKeys = new ContentKeys(contentKeyStore, loadCredentialKey(config));
  const protectedEvents = new ProtectingEventStore(storedEvents, contentKeys, {
    vacuumingDelayDays: config.archivedDataVacuumingDelayDays ?? 30,
    now: () => clock.now(),
    onError: (error) => logger?.warn({ err: error }, 'scheduling the erasure of a deleted message failed; the purge job catches up'),
  });
  const eventStore = new UpcastingEventStore(config.sealMessageTexts === false ? storedEvents : protectedEvents, upcasterRegistry(), metrics);
  // A log written before the sealing has message texts in clear: sealed in place (and the texts
  // of messages deleted longer ago than the delay shredded) before anything reads it. Once done,
  // a mark in the key store makes this a single lookup. The process that owns the read models does it.
  if (rawEvents instanceof SqliteEventStore && config.runProjectors && config.sealMessageTexts !== false) {
    const done = await migrateEmbeddedContent(rawEvents.db, protectedEvents);
    if (done.sealed > 0) logger?.warn({ events: done.sealed, destroyed: done.destroyed }, 'sealed the message texts of the event log written before erasure existed (issue 35); older backups and exports still hold them in clear');
  }
  // Read models whose documents held secrets (the credentials read model before issue 35,
  // checkpoint `credentials`: API keys and hashes; push registrations before v3: legacy push
  // tokens) are dropped, so that their current projections replay into an empty collection (a
  // replay over documents written at later positions would leave them as they are). The embedded
  // migration above already did this, with a VACUUM; this is the servers' (MongoDB) case. (Email
  // changes kept their collection's name: on MongoDB the rebuild that follows migrate-credentials
  // replaces their old documents.)
  if (config.runProjectors) {
    for (const { collection, old, checkpoints } of SECRET_READ_MODELS) {
      let found = false;
      for (const name of old) found = found || (await readStore.getCheckpoint(name)) !== undefined;
      if (!found) continue;
      await readStore.dropCollection(collection);
      for (const name of checkpoints) await readStore.deleteCheckpoint(name);
      logger?.warn({ collection }, 'dropped a read model written before issue 35 that held secrets; it is rebuilt from the log now');
    }
  }
  // EventStoreDB written before issue 35: its old events' secrets are copied into the credential
  // store (so that their keys keep working); removing them from the log is an offline step.
  if (config.eventStoreDriver === 'servers' && config.runProjectors && (await credentialStore.mark(CREDENTIALS_MIGRATED_MARK)) === null) {
    const { runCredentialMigration } = await import('./credential-migration');
    const done = await runCredentialMigration({ eventStore, store: credentialStore, config, log: (m) => logger?.info(m), storeOnly: true });
    // The push devices' snapshots of before version 3 held push keys and tokens: gone (a cache; the streams are read again).
    await snapshotStore.removeDecider('push-devices');
    if (done.migrated > 0) logger?.warn({ events: done.migrated }, 'the event log still holds API keys, password hashes or push secrets written before issue 35: run `npm run cli -- migrate-credentials` with the servers stopped (docs/security.md)');
  }
  /** The sequences were advanced past the log's ids at this boot (else the mark must not move). */
  let sequencesAdvanced = false;
  const close = async () => {
    // Every event this process appended took its ids from the allocator, so the log up to its
    // head holds no id above the sequences: the mark moves there, and the next boot scans only
    // what is appended after (without this, a restart re-read everything appended since the
    // previous boot: seconds per million events). The mark lives with the sequences, so a
    // dropped or restored sequences store takes an older mark with it and is scanned again.
    const head = await eventStore.headPosition().catch(() => undefined);
    if (head !== undefined && sequencesAdvanced) await idAllocator.markLogScanned(head).catch((error: unknown) => logger?.warn({ err: error }, 'the id scan mark was not moved at close'));
    for (const watcher of watchers) await watcher.close();
    await readModelChanges.close();
    await presenceStore.close();
    await storageScrubber.close();
    await snapshotStore.close();
    await mailOutbox.close();
    await credentialStore.close();
    await contentKeyStore.close();
    await eventStore.close();
    await userMessageStore.close();
    await readStore.close();
    await liveReadModels.copies.close();
    for (const db of sqlite.values()) db.close();
  };
  try {
    // A log whose sealed texts this installation has no key for (a data directory restored
    // without its content-keys.sqlite or credentials.key) is a configuration error: refused here,
    // with the file to restore, instead of a replay that cannot open it (docs/deployment.md).
    if (options.checkSealedLog && config.sealMessageTexts !== false) {
      const checked = await checkSealedLog(protectedEvents);
      logger?.debug({ positions: checked.opened.map(String) }, 'the sealed events at the ends of the log open with the content keys here');
    }
    // Before anything allocates: the sequences continue above every id the log holds, reading only
    // what was appended since the last boot (the whole log once the sequences' store was dropped or
    // restored from an older backup: MongoDB's _sequences, ids.sqlite beside EventStoreDB).
    const scan = await advanceSequencesFromLog(eventStore, idAllocator);
    if (scan.scanned > 0) logger?.info({ events: scan.scanned, sequences: Object.fromEntries(scan.maxima) }, 'id sequences advanced past the ids in the log');
    sequencesAdvanced = true;
  } catch (error) {
    // Nothing starts: the files are let go of (a process that handles the error and goes on, a test, leaks nothing).
    await close().catch(() => undefined);
    throw error;
  }
  return {
    eventStore,
    readStore,
    idAllocator,
    userMessageStore,
    liveReadModels,
    presenceStore,
    readModelChanges,
    snapshotStore,
    mailOutbox,
    credentialStore,
    storageScrubber,
    contentKeyStore,
    protectedEvents,
    close,
  };
}

export type InfrastructureOptions = {
  config: AppConfig;
  /** Test doubles for the clock and the random source. */
  clock?: ClockPort;
  random?: RandomPort;
  logger?: Logger;
  /** The app's Prometheus metrics (a fresh registry when not given). */
  metrics?: PrometheusMetrics;
} & OpenAdaptersOptions;

const ADAPTERS = Symbol('ADAPTERS');

@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(@Inject(ADAPTERS) private readonly adapters: Adapters) {}

  static forRoot(options: InfrastructureOptions): DynamicModule {
    const clock = options.clock ?? new SystemClock();
    const metrics = options.metrics ?? new PrometheusMetrics();
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: options.config },
      { provide: CLOCK, useValue: clock },
      { provide: RANDOM, useValue: options.random ?? new CryptoRandom() },
      { provide: LOGGER, useValue: options.logger ?? createLogger(options.config.logLevel) },
      { provide: METRICS, useValue: metrics },
      { provide: PrometheusMetrics, useValue: metrics },
      { provide: ADAPTERS, useFactory: (logger: Logger) => openAdapters(options.config, clock, metrics, logger, { checkSealedLog: options.checkSealedLog }), inject: [LOGGER] },
      { provide: EVENT_STORE, useFactory: (a: Adapters) => a.eventStore, inject: [ADAPTERS] },
      { provide: READ_STORE, useFactory: (a: Adapters) => a.readStore, inject: [ADAPTERS] },
      { provide: ID_ALLOCATOR, useFactory: (a: Adapters) => a.idAllocator, inject: [ADAPTERS] },
      { provide: USER_MESSAGE_STORE, useFactory: (a: Adapters) => a.userMessageStore, inject: [ADAPTERS] },
      { provide: LIVE_READ_MODELS, useFactory: (a: Adapters) => a.liveReadModels, inject: [ADAPTERS] },
      { provide: READ_MODEL_CHANGES, useFactory: (a: Adapters) => a.readModelChanges, inject: [ADAPTERS] },
      { provide: PRESENCE_STORE, useFactory: (a: Adapters) => a.presenceStore, inject: [ADAPTERS] },
      { provide: SNAPSHOT_STORE, useFactory: (a: Adapters) => a.snapshotStore, inject: [ADAPTERS] },
      { provide: STORAGE_SCRUBBER, useFactory: (a: Adapters) => a.storageScrubber, inject: [ADAPTERS] },
      { provide: MAIL_OUTBOX, useFactory: (a: Adapters) => a.mailOutbox, inject: [ADAPTERS] },
      mailTransportProvider(options.config),
      { provide: CREDENTIAL_STORE, useFactory: (a: Adapters) => a.credentialStore, inject: [ADAPTERS] },
      { provide: CREDENTIAL_KEY, useFactory: () => loadCredentialKey(options.config) },
      { provide: CONTENT_KEY_STORE, useFactory: (a: Adapters) => a.contentKeyStore, inject: [ADAPTERS] },
      { provide: ProtectingEventStore, useFactory: (a: Adapters) => a.protectedEvents, inject: [ADAPTERS] },
      blobStoreProvider(options.config),
      rateLimitStoreProvider(options.config),
      schedulerProvider(options.config),
    ];
    return {
      module: InfrastructureModule,
      providers,
      exports: [APP_CONFIG, CLOCK, RANDOM, LOGGER, EVENT_STORE, READ_STORE, ID_ALLOCATOR, USER_MESSAGE_STORE, BLOB_STORE, RATE_LIMIT_STORE, LIVE_READ_MODELS, SCHEDULER, PRESENCE_STORE, METRICS, PrometheusMetrics, READ_MODEL_CHANGES, SNAPSHOT_STORE, STORAGE_SCRUBBER, MAIL_OUTBOX, MAIL_TRANSPORT, CREDENTIAL_STORE, CREDENTIAL_KEY, CONTENT_KEY_STORE, ProtectingEventStore],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.adapters.close();
  }
}
