import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG, EVENT_STORE, type EventStorePort, exportEventLog, importEventLog, LIVE_READ_MODELS, type LiveReadModels, type RecordedEvent } from '@app/application';
import type { AppConfig } from '@app/config';
import { openSqlite } from '@app/infrastructure';
import { ProjectionRebuilder, Projector } from '@app/projections';
import { makeTempDir, readWholeLog, testConfig } from '@app/testing';
import { ApiTestClient } from '../support';
import { CliModule } from '../../apps/cli/src/cli.module';
import { differences, dumpReadModels, type ReadModelDump } from '../replay/read-model-dump';
import { coverageWorkload, declaredEventTypes, randomWorkload } from '../replay/workload';

/**
 * Replay suites (docs/operations.md): a generated workload runs through the whole app, its
 * events are recorded into an NDJSON fixture, replayed into a fresh installation, and every
 * read-model document there must equal the live one. S7 (determinism): after random workloads,
 * a blue/green rebuild from zero equals the live read models, document by document.
 *
 *   REPLAY_SEEDS=1,2,3 REPLAY_OPERATIONS=400 npx jest --selectProjects api --maxWorkers=1 test/api/replay.api-spec.ts
 */
const SEEDS = (process.env.REPLAY_SEEDS ?? '7').split(',').map(Number);
const OPERATIONS = Number(process.env.REPLAY_OPERATIONS ?? 120);

const documentCount = (dump: ReadModelDump) => Object.values(dump).reduce((n, docs) => n + docs.length, 0);

// Whole workloads through HTTP on a shared machine: generous limits (the default is 5 s).
jest.setTimeout(120_000 + OPERATIONS * SEEDS.length * 500);

describe('replay suites', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  afterAll(() => dirs.forEach((d) => d.remove()));

  const liveDump = (api: ApiTestClient) => {
    const live = api.app.get<LiveReadModels>(LIVE_READ_MODELS);
    return dumpReadModels(live.readStore, live.userMessages.port);
  };

  /**
   * Imports a recorded fixture into a fresh installation and returns its read models once caught
   * up. The message texts of an export are sealed with the keys of the installation that wrote it
   * (docs/security.md, "How erasure works"): its content-key store and key-encryption key come along.
   */
  const replayInto = async (fixture: string, keysFrom?: string): Promise<ReadModelDump> => {
    const dir = makeTempDir();
    dirs.push(dir);
    if (keysFrom) {
      const source = openSqlite(join(keysFrom, 'content-keys.sqlite'));
      source.pragma('wal_checkpoint(TRUNCATE)');
      source.close();
      for (const file of ['content-keys.sqlite', 'credentials.key']) copyFileSync(join(keysFrom, file), join(dir.path, file));
    }
    const app: INestApplicationContext = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dir.path) }), { logger: false });
    await app.init();
    try {
      await importEventLog(app.get<EventStorePort>(EVENT_STORE), fixture);
      await app.get(Projector).catchUp();
      const live = app.get<LiveReadModels>(LIVE_READ_MODELS);
      return await dumpReadModels(live.readStore, live.userMessages.port);
    } finally {
      await app.close();
    }
  };

  it('records a workload covering every event type and replays it into a fresh store with equal read models', async () => {
    const api = await ApiTestClient.start({ config: { pushNotificationsBouncerUrl: 'https://push.example.com' } });
    try {
      await coverageWorkload(api);
      await randomWorkload(api, 1, 40);
      const events = await readWholeLog(api.eventStore);
      const seen = new Set(events.map((e) => e.type));
      expect(declaredEventTypes().length).toBeGreaterThan(60);
      expect(declaredEventTypes().filter((type) => !seen.has(type))).toEqual([]);
      expect(events.every((e) => typeof e.metadata.schemaVersion === 'number')).toBe(true);

      const dir = makeTempDir();
      dirs.push(dir);
      const fixture = join(dir.path, 'workload.ndjson');
      expect(await exportEventLog(api.eventStore, fixture)).toBe(events.length);
      const live = await liveDump(api);
      const replayed = await replayInto(fixture, api.app.get<AppConfig>(APP_CONFIG).dataDir);
      expect(differences(replayed, live)).toEqual([]);
      expect(documentCount(live)).toBeGreaterThan(50);
      process.stderr.write(`replay: ${events.length} events of ${seen.size} types recorded and replayed, ${documentCount(live)} documents and flag rows equal\n`);
    } finally {
      await api.close();
    }
  });

  it.each(SEEDS)('S7: after a random workload (seed %i), a rebuild from zero equals the live read models', async (seed) => {
    const api = await ApiTestClient.start();
    try {
      await randomWorkload(api, seed, OPERATIONS);
      const before = await liveDump(api);
      const result = await api.app.get(ProjectionRebuilder).rebuild('all');
      expect(result.phase).toBe('done');
      const after = await liveDump(api);
      expect(differences(after, before)).toEqual([]);
      expect(after).toEqual(before);
      process.stderr.write(`S7 seed ${seed}: ${OPERATIONS} operations, ${result.total} events, ${documentCount(after)} documents and flag rows equal after the rebuild\n`);
    } finally {
      await api.close();
    }
  });
});
