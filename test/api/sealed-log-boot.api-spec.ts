import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { APP_CONFIG, ContentKeyMissingError, EVENT_STORE, type EventStorePort, MESSAGE_BATCH_SIZE, messageBatchScope } from '@app/application';
import type { AppConfig } from '@app/config';
import { openSqlite } from '@app/infrastructure';
import { makeTempDir, personaHelpers, testConfig } from '@app/testing';
import { AppModule } from '../../apps/api/src/app.module';
import { createHttpAdapter } from '../../apps/api/src/http/http-adapter';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { ApiTestClient, runCli } from '../support';

/**
 * Issue 35: a data directory whose event log holds sealed texts this installation has no key for
 * (events.sqlite restored without its content-keys.sqlite, or with another credentials.key) is a
 * configuration error. The server (single process, API without projectors, worker) refuses to start
 * within seconds, with ContentKeyMissingError naming the file to restore, instead of replaying
 * forever (docs/deployment.md, "The event log cannot be opened"). The process-level side (the log
 * line, exit code 78) is test/crash/sealed-log-boot.crash-spec.ts.
 */
jest.setTimeout(60_000);

/** A boot refused within this (no hang). */
const BOUND_MS = 15_000;

/**
 * Sends the texts, each in a batch of message keys of its own (filler messages in between), so that
 * the middle one's key can go missing while the ends of the log still open.
 */
async function sendInSeparateBatches(send: (content: string) => Promise<number>, texts: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, content] of texts.entries()) {
    let id = await send(content);
    ids.push(id);
    if (i < texts.length - 1) while ((id + 1) % MESSAGE_BATCH_SIZE !== 0) id = await send(`filler after ${content}`);
  }
  return ids;
}

describe('a server on a sealed log whose keys it does not have', () => {
  let api: ApiTestClient;
  /** The source data directory's files, copied while the server ran (VACUUM INTO: a consistent copy). */
  let source: ReturnType<typeof makeTempDir>;
  const texts = ['zq-boot-first-altair', 'zq-boot-middle-vega', 'zq-boot-last-deneb'];
  const messageIds: number[] = [];
  const dirs: ReturnType<typeof makeTempDir>[] = [];

  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'] });
    const { send, id } = personaHelpers(() => api);
    messageIds.push(...(await sendInSeparateBatches((content) => send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content }), texts)));
    const dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
    source = makeTempDir('sealed-log-source-');
    for (const file of ['events.sqlite', 'content-keys.sqlite']) {
      const db = openSqlite(join(dataDir, file));
      db.exec(`VACUUM INTO '${join(source.path, file)}'`);
      db.close();
    }
    copyFileSync(join(dataDir, 'credentials.key'), join(source.path, 'credentials.key'));
    await api.close();
  });

  afterAll(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const dir of dirs) dir.remove();
    source?.remove();
  });

  /** A fresh data directory holding these of the source's files (and nothing else: the read models are replayed). */
  const restored = (files: string[]): string => {
    const dir = makeTempDir('sealed-log-restored-');
    dirs.push(dir);
    for (const file of files) copyFileSync(join(source.path, file), join(dir.path, file));
    // The uploads' store creates its folder on its own time: there already when the directory is removed.
    mkdirSync(join(dir.path, 'tus'));
    return dir.path;
  };

  type Layout = 'single process' | 'API without projectors' | 'worker';
  /** Starts the layout's application on the data directory (as main.ts does, in process): the started context, or the error its start rejected with. */
  const boot = async (dataDir: string, layout: Layout, keepOpen = false): Promise<{ app?: INestApplicationContext; error?: unknown; ms: number; refusedBy?: 'the boot check' | 'the replay' }> => {
    const started = Date.now();
    const config = testConfig(dataDir, layout === 'API without projectors' ? { runProjectors: false, runScheduledJobs: false } : {});
    let app: INestApplicationContext | undefined;
    try {
      if (layout === 'worker') {
        app = await Test.createTestingModule({ imports: [WorkerModule.forRoot({ config: { ...config, runProjectors: true } })] }).compile();
      } else {
        const ref = await Test.createTestingModule({ imports: [AppModule.forRoot({ config })] }).compile();
        app = ref.createNestApplication(createHttpAdapter(), { logger: false, bodyParser: false });
      }
      await Promise.race([app.init(), new Promise((_, reject) => setTimeout(() => reject(new Error(`still starting after ${BOUND_MS} ms`)), BOUND_MS).unref())]);
      return { app, ms: Date.now() - started };
    } catch (error) {
      // The adapters (and the boot check) are opened while the modules are created; the replay runs at init.
      const refusedBy = app ? ('the replay' as const) : ('the boot check' as const);
      if (!keepOpen) await app?.close().catch(() => undefined);
      return { app: keepOpen ? app : undefined, error, ms: Date.now() - started, refusedBy };
    }
  };

  it('with its content keys and key-encryption key (the same backup) it starts and reads the texts: the copy is sound', async () => {
    const dataDir = restored(['events.sqlite', 'content-keys.sqlite', 'credentials.key']);
    const { app, error } = await boot(dataDir, 'single process');
    expect(error).toBeUndefined();
    try {
      const events = app!.get<EventStorePort>(EVENT_STORE);
      const contents = await Promise.all(messageIds.map(async (id) => (await events.readStream(`message-${id}`)).events[0].data.content));
      expect(contents).toEqual(texts);
    } finally {
      await app!.close();
    }
  });

  it.each<Layout>(['single process', 'API without projectors', 'worker'])('without content-keys.sqlite: the %s refuses to start, at once, naming the file to restore', async (layout) => {
    const dataDir = restored(['events.sqlite', 'credentials.key']);
    const { error, ms, refusedBy } = await boot(dataDir, layout);
    expect(error).toBeInstanceOf(ContentKeyMissingError);
    expect(refusedBy).toBe('the boot check');
    expect(error).toMatchObject({
      reason: 'missing',
      message: expect.stringContaining('the event log was sealed with keys that are not in DATA_DIR/content-keys.sqlite'),
    });
    expect((error as Error).message).toContain('restore content-keys.sqlite and credentials.key (or CREDENTIALS_KEY) from the same backup as events.sqlite (docs/deployment.md');
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it('with another credentials.key (the keys do not unwrap): refuses to start, naming the key-encryption key', async () => {
    const dataDir = restored(['events.sqlite', 'content-keys.sqlite']);
    expect(existsSync(join(dataDir, 'credentials.key'))).toBe(false); // the server creates a new one: not the one the keys were wrapped with
    const { error } = await boot(dataDir, 'single process');
    expect(error).toBeInstanceOf(ContentKeyMissingError);
    expect(error).toMatchObject({ reason: 'wrong-kek', message: expect.stringContaining('credentials.key or CREDENTIALS_KEY is not the one the keys were written with') });
  });

  it('a key missing further in (the boot check opens the ends of the log): the replay stops on it and the start is refused, instead of retrying forever', async () => {
    const dataDir = restored(['events.sqlite', 'content-keys.sqlite', 'credentials.key']);
    const keys = openSqlite(join(dataDir, 'content-keys.sqlite'));
    expect(keys.prepare('DELETE FROM content_keys WHERE scope = ?').run(messageBatchScope(messageIds[1])).changes).toBe(1);
    keys.close();
    // As a cleanly stopped server leaves it: the id sequences marked as advanced past the whole log
    // (else their scan at boot reads the log, and meets the missing key before the replay does).
    const events = openSqlite(join(dataDir, 'events.sqlite'));
    events.prepare('INSERT OR REPLACE INTO sequences_log_scan (id, position) VALUES (1, (SELECT max(position) FROM events))').run();
    events.close();
    const { app, error, ms, refusedBy } = await boot(dataDir, 'single process', true);
    try {
      expect(refusedBy).toBe('the replay');
      expect(error).toBeInstanceOf(ContentKeyMissingError);
      expect(error).toMatchObject({ reason: 'missing' });
      expect(ms).toBeLessThan(BOUND_MS);
      // Had it been running (a key store swapped under it), a load balancer would see it: /health is 503, with the reason.
      const health = await request((app as INestApplication).getHttpServer()).get('/health');
      expect(health.status).toBe(503);
      expect(health.body.projections).toMatchObject({ ok: false, running_here: true, detail: expect.stringContaining('restore content-keys.sqlite') });
    } finally {
      await app?.close().catch(() => undefined);
    }
  });

  it('a blue/green rebuild (the CLI’s, beside the running server) that meets a key missing further in fails with the reason instead of hanging; the live read models keep serving', async () => {
    const server = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'] });
    try {
      const { send, id } = personaHelpers(() => server);
      const ids = await sendInSeparateBatches((content) => send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content }), texts);
      const dataDir = server.app.get<AppConfig>(APP_CONFIG).dataDir;
      // A restart leaves the id scan's mark at the head (the CLI's boot then reads nothing of the log).
      await server.restart();
      // The server's projector is past the message; the CLI's process reads the store.
      const keys = openSqlite(join(dataDir, 'content-keys.sqlite'));
      expect(keys.prepare('DELETE FROM content_keys WHERE scope = ?').run(messageBatchScope(ids[1])).changes).toBe(1);
      keys.close();
      const started = Date.now();
      await expect(runCli(dataDir, ['rebuild'])).rejects.toMatchObject({ name: 'ContentKeyMissingError', reason: 'missing', message: expect.stringContaining('restore content-keys.sqlite') });
      expect(Date.now() - started).toBeLessThan(BOUND_MS);
      // The switch never happened: the server still answers from its read models.
      const fetched = await Promise.all(ids.map(async (messageId) => (await server.as('hamlet').get(`/api/v1/messages/${messageId}`)).body.message?.content));
      expect(fetched).toEqual(texts.map((t) => `<p>${t}</p>`));
    } finally {
      await server.close();
    }
  });
});
