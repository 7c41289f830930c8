import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { join } from 'node:path';
import {
  APP_CONFIG,
  CLOCK,
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
  BLOB_STORE,
  RATE_LIMIT_STORE,
  SCHEDULER,
  LIVE_READ_MODELS,
  type LiveReadModels,
  UpcastingEventStore,
  upcasterRegistry,
} from '@app/application';
import type { AppConfig } from '@app/config';
import type Database from 'better-sqlite3';
import { openSqlite } from './embedded/sqlite';
import { SqliteEventStore } from './embedded/sqlite-event-store';
import { SqliteIdAllocator } from './embedded/sqlite-id-allocator';
import { SqliteReadModelCopies } from './embedded/sqlite-read-model-copies';
import { SystemClock } from './system/system-clock';
import { CryptoRandom } from './system/crypto-random';
import { createLogger, type Logger } from './system/logger';
import { blobStoreProvider } from './blob-store.provider';
import { rateLimitStoreProvider } from './rate-limit-store.provider';
import { schedulerProvider } from './scheduler.provider';

export type Adapters = {
  eventStore: EventStorePort;
  readStore: ReadStorePort;
  idAllocator: IdAllocatorPort;
  /** Per-user message state, in the read store's database (it shares its checkpoints). */
  userMessageStore: UserMessageStorePort;
  /** The read models as switchable copies, for blue/green rebuilds (docs/operations.md). */
  liveReadModels: LiveReadModels;
  close(): Promise<void>;
};

/**
 * Opens the adapters the configuration names. Each port is chosen independently, so an
 * installation may keep, say, the embedded event store with the MongoDB read store.
 */
export async function openAdapters(config: AppConfig, clock: ClockPort): Promise<Adapters> {
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
  const storedEvents =
    config.eventStoreDriver === 'servers'
      ? (await import('./eventstoredb/esdb-event-store')).EsdbEventStore.connect(config.esdbUrl)
      : new SqliteEventStore(openEmbedded('events.sqlite'), { pollIntervalMs: 100, now: () => clock.now() });
  // Reads come back upcast to the current event shapes; appends carry each type's schema version.
  const eventStore = new UpcastingEventStore(storedEvents, upcasterRegistry());
  let readStore: ReadStorePort;
  let idAllocator: IdAllocatorPort;
  let userMessageStore: UserMessageStorePort;
  let liveReadModels: LiveReadModels;
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
  } else {
    // The read models live in one or more SQLite files (read-models.sqlite until a rebuild
    // switches to a fresh copy); the layout file names them.
    liveReadModels = SqliteReadModelCopies.openLive(config.dataDir, config.sqliteSynchronous);
    readStore = liveReadModels.readStore;
    // Ids live beside the events: both are the embedded installation's durable state.
    idAllocator = new SqliteIdAllocator(openEmbedded(config.eventStoreDriver === 'servers' ? 'ids.sqlite' : 'events.sqlite'));
    userMessageStore = liveReadModels.userMessages.port;
  }
  return {
    eventStore,
    readStore,
    idAllocator,
    userMessageStore,
    liveReadModels,
    async close() {
      await eventStore.close();
      await userMessageStore.close();
      await readStore.close();
      await liveReadModels.copies.close();
      for (const db of sqlite.values()) db.close();
    },
  };
}

export type InfrastructureOptions = {
  config: AppConfig;
  /** Test doubles for the clock and the random source. */
  clock?: ClockPort;
  random?: RandomPort;
  logger?: Logger;
};

const ADAPTERS = Symbol('ADAPTERS');

@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(@Inject(ADAPTERS) private readonly adapters: Adapters) {}

  static forRoot(options: InfrastructureOptions): DynamicModule {
    const clock = options.clock ?? new SystemClock();
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: options.config },
      { provide: CLOCK, useValue: clock },
      { provide: RANDOM, useValue: options.random ?? new CryptoRandom() },
      { provide: LOGGER, useValue: options.logger ?? createLogger(options.config.logLevel) },
      { provide: ADAPTERS, useFactory: () => openAdapters(options.config, clock) },
      { provide: EVENT_STORE, useFactory: (a: Adapters) => a.eventStore, inject: [ADAPTERS] },
      { provide: READ_STORE, useFactory: (a: Adapters) => a.readStore, inject: [ADAPTERS] },
      { provide: ID_ALLOCATOR, useFactory: (a: Adapters) => a.idAllocator, inject: [ADAPTERS] },
      { provide: USER_MESSAGE_STORE, useFactory: (a: Adapters) => a.userMessageStore, inject: [ADAPTERS] },
      { provide: LIVE_READ_MODELS, useFactory: (a: Adapters) => a.liveReadModels, inject: [ADAPTERS] },
      blobStoreProvider(options.config),
      rateLimitStoreProvider(options.config),
      schedulerProvider(options.config),
    ];
    return {
      module: InfrastructureModule,
      providers,
      exports: [APP_CONFIG, CLOCK, RANDOM, LOGGER, EVENT_STORE, READ_STORE, ID_ALLOCATOR, USER_MESSAGE_STORE, BLOB_STORE, RATE_LIMIT_STORE, LIVE_READ_MODELS, SCHEDULER],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.adapters.close();
  }
}
