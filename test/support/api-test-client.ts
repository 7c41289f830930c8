import { Test } from '@nestjs/testing';
import type { INestApplicationContext } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import {
  APP_CONFIG,
  CreateRealmCommand,
  CreateUserCommand,
  EVENT_STORE,
  type EventStorePort,
  type GlobalPosition,
  ProjectionWaiter,
  type RecordedEvent,
  ScheduledDeliveries,
  type StreamRevision,
} from '@app/application';
import { CURRENT_SCHEMA_VERSION, operatorActor } from '@app/domain';
import type { AppConfig } from '@app/config';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expectError, expectSuccess, FakeClock, makeTempDir, PERSONAS, type PersonaName, testConfig } from '@app/testing';
import { AppModule, type AppOptions } from '../../apps/api/src/app.module';
import { configureHttp } from '../../apps/api/src/http/configure-http';
import { createHttpAdapter } from '../../apps/api/src/http/http-adapter';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { type FolderMail, MailFolder, mailFolderPath } from '@app/infrastructure';

const SYSTEM_GROUP_ORDER = ['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet', 'role:nobody'];

export type Credentials = { userId: number; email: string; apiKey: string };
type Params = Record<string, unknown>;

/** Form-encodes parameters the way Zulip's Python bindings do: strings as-is, everything else as JSON. */
export function zulipForm(params: Params): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
}

/**
 * The split layout (docs/deployment.md) under test: `SPLIT_LAYOUT=1` (the jest project `split`)
 * starts one worker (projectors, scheduled deliveries) and SPLIT_API_PROCESSES (default 2) API
 * applications with RUN_PROJECTORS=false and RUN_SCHEDULED_JOBS=false, all on one data directory,
 * each with its own connections, file watches, event queues and rate limits, as separate
 * processes would have. Personas are spread over the API applications, so one persona's write
 * is read by another through a different application.
 */
export const SPLIT_LAYOUT = process.env.SPLIT_LAYOUT === '1';
const SPLIT_API_PROCESSES = Math.max(1, Number(process.env.SPLIT_API_PROCESSES ?? 2));

/**
 * `npm run test:servers` (TEST_STORAGE=servers): events on EventStoreDB, read models on MongoDB,
 * typing over Redis, each test isolated on the shared servers (its own stream namespace and
 * database, dropped at close). Scheduled deliveries keep the fake clock's timers here; BullMQ has
 * its own suites (scheduler contract, scheduled-messages-bullmq).
 */
const SERVERS = process.env.TEST_STORAGE === 'servers';
function serversConfig(): Partial<AppConfig> {
  const namespace = `t${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const need = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`TEST_STORAGE=servers needs ${name}`);
    return value;
  };
  return {
    eventStoreDriver: 'servers',
    readStoreDriver: 'servers',
    esdbUrl: need('ESDB_URL'),
    mongodbUri: need('MONGODB_URI'),
    mongodbDb: `test_${namespace}`,
    redisUrl: need('REDIS_URL'),
    storeNamespace: namespace,
  };
}

/**
 * The whole application over HTTP on embedded adapters in a temporary directory, with a fake
 * clock and the personas created through the real command handlers.
 * Usage: `api = await ApiTestClient.start(); await api.as('hamlet').get('/api/v1/users/me')`.
 */
export class ApiTestClient {
  readonly credentials = new Map<string, Credentials>();
  private eventsMark: GlobalPosition | undefined;

  private constructor(
    /** The API application (the first one in the split layout: unauthenticated requests go there). */
    public app: NestExpressApplication,
    readonly clock: FakeClock,
    readonly realmId: number,
    private readonly removeDir: () => void,
    /** Every API application (one, or SPLIT_API_PROCESSES in the split layout). */
    public apps: NestExpressApplication[] = [app],
    private worker?: INestApplicationContext,
    /** Starts the applications again on the same data directory and clock (restart). */
    private readonly boot?: () => Promise<{ apps: NestExpressApplication[]; worker?: INestApplicationContext }>,
  ) {}

  static async start(options: { personas?: PersonaName[]; config?: Partial<AppConfig>; logger?: AppOptions['logger'] } = {}): Promise<ApiTestClient> {
    const dir = makeTempDir('team-chat-api-');
    const clock = new FakeClock();
    const config = testConfig(dir.path, { ...(SERVERS ? serversConfig() : {}), ...options.config });
    const startApp = async (appConfig: AppConfig) => {
      const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config: appConfig, clock, logger: options.logger })] }).compile();
      const app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(), { logger: false, bodyParser: false });
      configureHttp(app, appConfig);
      await app.init();
      return app;
    };
    const boot = async () => {
      if (!SPLIT_LAYOUT) return { apps: [await startApp(config)] };
      // The worker first: it creates the read models; the API applications open them.
      const workerRef = await Test.createTestingModule({ imports: [WorkerModule.forRoot({ config: { ...config, runProjectors: true }, clock, logger: options.logger })] }).compile();
      await workerRef.init();
      const apiConfig: AppConfig = { ...config, runProjectors: false, runScheduledJobs: false };
      const apps: NestExpressApplication[] = [];
      for (let i = 0; i < SPLIT_API_PROCESSES; i++) apps.push(await startApp(apiConfig));
      return { apps, worker: workerRef };
    };
    const { apps, worker } = await boot();
    const app = apps[0];
    const bus = app.get(CommandBus);
    const { realmId } = await bus.execute(new CreateRealmCommand('acme', 'Acme Corp'));
    const client = new ApiTestClient(app, clock, realmId, dir.remove, apps, worker, boot);
    for (const name of options.personas ?? (Object.keys(PERSONAS) as PersonaName[])) {
      const persona = PERSONAS[name];
      const { userId, apiKey } = await bus.execute(
        new CreateUserCommand({ actor: operatorActor(realmId) }, { email: persona.email, fullName: persona.fullName, role: persona.role, password: `${name}-password` }),
      );
      client.credentials.set(name, { userId, email: persona.email, apiKey });
    }
    await client.markEvents();
    return client;
  }

  /** Where the projectors and scheduled deliveries run: the worker in the split layout, else the API application. */
  get background(): INestApplicationContext {
    return this.worker ?? this.app;
  }

  /** The API application a persona's requests go to (personas alternate between them in the split layout). */
  appFor(name: string): NestExpressApplication {
    const index = [...this.credentials.keys()].indexOf(name);
    return this.apps[Math.max(0, index) % this.apps.length];
  }

  /**
   * Waits until the process running the deliveries has armed (or moved, or dropped) the delivery
   * jobs of every scheduled message written so far: at once in one process; from the log in the
   * worker of the split layout.
   */
  async settled(): Promise<void> {
    await this.background.get(ScheduledDeliveries).armedThrough(await this.eventStore.headPosition());
  }

  get http() {
    return request(this.app.getHttpServer());
  }

  get eventStore(): EventStorePort {
    return this.app.get(EVENT_STORE);
  }

  user(name: string): Credentials {
    const credentials = this.credentials.get(name);
    if (!credentials) throw new Error(`no persona ${name}`);
    return credentials;
  }

  /** A system group's id in this organization: organization r holds (r-1)*8+1 … r*8, owners first (SystemGroupIds). */
  systemGroupId(name: string): number {
    const index = SYSTEM_GROUP_ORDER.indexOf(name);
    if (index < 0) throw new Error(`no system group ${name}`);
    return (this.realmId - 1) * 8 + index + 1;
  }

  /** A channel's id by name (GET /get_stream_id, as `who`). */
  async channelId(name: string, who = 'hamlet'): Promise<number> {
    return expectSuccess(await this.as(who).get('/api/v1/get_stream_id', { stream: name })).stream_id as number;
  }

  /** A persona's topic visibility policies (POST /register `user_topics`). */
  async userTopics(who: string): Promise<{ stream_id: number; topic_name: string; visibility_policy: number }[]> {
    return expectSuccess(await this.as(who).post('/api/v1/register', { fetch_event_types: JSON.stringify(['user_topic']) })).user_topics;
  }

  /** Requests authenticated as a persona (HTTP Basic: email + API key). */
  as(name: string) {
    const { email, apiKey } = this.user(name);
    const auth = (r: request.Test) => r.auth(email, apiKey);
    const http = () => request(this.appFor(name).getHttpServer());
    return {
      get: (path: string, query: Params = {}) => auth(http().get(path).query(zulipForm(query))),
      delete: (path: string, query: Params = {}) => auth(http().delete(path).query(zulipForm(query))),
      post: (path: string, body: Params = {}) => auth(http().post(path).type('form').send(zulipForm(body))),
      patch: (path: string, body: Params = {}) => auth(http().patch(path).type('form').send(zulipForm(body))),
      put: (path: string, body: Params = {}) => auth(http().put(path).type('form').send(zulipForm(body))),
      /** As zulip-js sends POSTs: every parameter a multipart field. */
      postMultipart: (path: string, body: Params = {}) => {
        let r = auth(http().post(path));
        for (const [k, v] of Object.entries(zulipForm(body))) r = r.field(k, v);
        return r;
      },
    };
  }

  /** Appends events directly (emmett's ApiSpecification "given"), then waits for the read models. */
  async givenEvents(streamId: string, events: { type: string; data: object }[]): Promise<void> {
    const { revision } = await this.eventStore.readStream(streamId);
    const { position } = await this.eventStore.appendToStream(
      streamId,
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: { schemaVersion: CURRENT_SCHEMA_VERSION } })),
      { expectedRevision: revision === 'no_stream' ? 'no_stream' : (revision as StreamRevision) },
    );
    await this.app.get(ProjectionWaiter).waitFor(position);
    await this.markEvents();
  }

  /**
   * The mails sent so far to `to` (of one kind, when given), oldest first, waiting up to `timeoutMs`
   * for at least `count` of them. Without EMAIL_HOST (the tests' default) the server writes mails to
   * DATA_DIR/emails, the outbox's delivery a moment after the request that queued them.
   */
  async mailsTo(to: string, options: { kind?: string; count?: number; timeoutMs?: number } = {}): Promise<FolderMail[]> {
    const folder = new MailFolder(mailFolderPath(this.app.get<AppConfig>(APP_CONFIG)));
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    for (;;) {
      const mails = folder.list(10_000).filter((m) => m.to === to && (!options.kind || m.kind === options.kind)).reverse();
      if (mails.length >= (options.count ?? 1) || Date.now() > deadline) return mails;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The key of the latest email-change confirmation link mailed to `to` (`/accounts/confirm_new_email/<key>/`). */
  async emailChangeKey(to: string, count = 1): Promise<string> {
    const mails = await this.mailsTo(to, { kind: 'confirm_new_email', count });
    const key = /\/accounts\/confirm_new_email\/([a-z0-9]+)\//.exec(mails.at(-1)?.text ?? '')?.[1];
    if (!key) throw new Error(`no confirmation link mailed to ${to}`);
    return key;
  }

  /** Starts counting events from now; `newEvents()` returns what was appended since. */
  async markEvents(): Promise<void> {
    this.eventsMark = await this.eventStore.headPosition();
  }

  async newEvents(): Promise<RecordedEvent[]> {
    return this.eventStore.readAll({ after: this.eventsMark, maxCount: 10_000 });
  }

  /**
   * A restart: every application (and the worker) closes and starts again on the same data
   * directory, configuration and clock; the personas keep their credentials.
   */
  async restart(): Promise<void> {
    for (const app of this.apps) await app.close();
    await this.worker?.close();
    const { apps, worker } = await this.boot!();
    this.apps = apps;
    this.app = apps[0];
    this.worker = worker;
    // The tus store creates its folder in the background at start (an unawaited mkdir, which
    // throws if the folder is removed first): a test that ends soon after a restart waits for it.
    // The folder exists already (the previous boot made it), and that mkdir can wait on libuv's
    // busy thread pool for seconds: a mkdir queued after it returns once it has run.
    const tus = join(this.app.get<AppConfig>(APP_CONFIG).dataDir, 'tus');
    while (!existsSync(tus)) await new Promise((resolve) => setTimeout(resolve, 5));
    await mkdir(tus, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
  }

  async close(): Promise<void> {
    const config = this.app.get<AppConfig>(APP_CONFIG);
    for (const app of this.apps) await app.close();
    await this.worker?.close();
    if (SERVERS && config.storeNamespace && config.mongodbDb.startsWith('test_')) {
      const { MongoClient } = await import('mongodb');
      const client = await MongoClient.connect(config.mongodbUri);
      await client.db(config.mongodbDb).dropDatabase().finally(() => client.close());
    }
    this.removeDir();
  }
}

// The envelope assertions live in @app/testing (the persona helpers use them); here for the specs that import them from test/support.
export { expectError, expectSuccess };
