import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG, EVENT_STORE, LIVE_READ_MODELS, LOGGER, type LiveReadModels, sealDecision } from '@app/application';
import type { AppConfig } from '@app/config';
import { rawEventStore } from '@app/application';
import { openAdapters, openSqlite, type SqliteEventStore, SystemClock } from '@app/infrastructure';
import { CONTENT_MIGRATION_CURSOR, CONTENT_SEALED_MARK, migrateEmbeddedContent } from '@app/infrastructure/embedded/sqlite-content-migration';
import { ProjectionRebuilder, Projector } from '@app/projections';
import { personaHelpers, testConfig } from '@app/testing';
import { ApiTestClient, expectSuccess, runCli } from '../support';
import { differences, dumpReadModels } from '../replay/read-model-dump';

/**
 * Issue 35 item 4, existing data: a data directory written before the sealing (message texts in
 * clear in events.sqlite, no content-key store) is sealed in place by a resumable migration; a
 * message deleted longer ago than the delay is shredded at once, one deleted recently keeps its
 * key until its time; the live messages read as before and a rebuild gives the same read models.
 */
jest.setTimeout(120_000);

const eventFiles = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('events.sqlite')).map((f) => join(dir, f));
const hits = (files: string[], texts: string[]) => files.flatMap((f) => texts.filter((t) => readFileSync(f).includes(Buffer.from(t))).map((t) => `${f.split('/').pop()}: ${t}`));

describe('sealing a log written before the sealing (embedded)', () => {
  let api: ApiTestClient;
  afterAll(() => api?.close());

  it('is sealed in place, resumably, with old deletions shredded at once', async () => {
    api = await ApiTestClient.start();
    const { send, sendToChannel, id, createChannel } = personaHelpers(() => api);
    const dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
    const texts = { live: 'zq-old-live-orion', topic: 'zq-old-topic-pegasus', channel: 'zq-old-channel-perseus', longAgo: 'zq-old-deleted-long-ago-phoenix', recent: 'zq-old-deleted-recently-pyxis' };
    // A follow of a topic is the user's own setting and keeps its name (docs/security.md): none here.
    for (const who of ['hamlet', 'cordelia']) {
      expectSuccess(await api.as(who).patch('/api/v1/settings', { automatically_follow_topics_policy: 4, automatically_follow_topics_where_mentioned: false, automatically_unmute_topics_in_muted_streams_policy: 4 }));
    }
    await createChannel('hamlet', 'old plans', { invite_only: true, principals: [id('hamlet'), id('cordelia')] });
    const live = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: texts.live });
    const channel = await sendToChannel('hamlet', 'old plans', texts.topic, texts.channel);
    const longAgo = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: texts.longAgo });
    expectSuccess(await api.as('hamlet').delete(`/api/v1/messages/${longAgo}`));
    // The clock to today, so that this deletion is recent for the migration (which runs on the real clock).
    api.clock.set(new Date());
    const recent = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: texts.recent });
    expectSuccess(await api.as('hamlet').delete(`/api/v1/messages/${recent}`));

    // The data directory as the server wrote it before: every sealed field in clear, no key store.
    const plain = await api.eventStore.readAll({ maxCount: 100_000 });
    const events = openSqlite(join(dataDir, 'events.sqlite'));
    const update = events.prepare('UPDATE events SET data = ? WHERE event_id = ?');
    let rewritten = 0;
    events.transaction(() => {
      for (const e of plain) if (sealDecision(e.type)) rewritten += update.run(JSON.stringify(e.data), e.id).changes;
    })();
    events.pragma('wal_checkpoint(TRUNCATE)');
    events.close();
    const keysDb = openSqlite(join(dataDir, 'content-keys.sqlite'));
    keysDb.exec('DELETE FROM content_keys; DELETE FROM destroyed_keys; DELETE FROM topic_members; DELETE FROM marks;');
    keysDb.close();
    expect(rewritten).toBeGreaterThan(5);
    expect(hits(eventFiles(dataDir), Object.values(texts)).length).toBeGreaterThanOrEqual(Object.keys(texts).length);
    const before = await dumpReadModels(api.app.get<LiveReadModels>(LIVE_READ_MODELS).readStore, api.app.get<LiveReadModels>(LIVE_READ_MODELS).userMessages.port);

    // A migration killed after its first batch (a process of its own, as the CLI is)…
    const adapters = await openAdapters(testConfig(dataDir, { runProjectors: false }), new SystemClock());
    try {
      const raw = rawEventStore(adapters.eventStore) as SqliteEventStore;
      await expect(migrateEmbeddedContent(raw.db, adapters.protectedEvents, { batch: 2, stopAfterBatches: 1 })).rejects.toThrow(/stopped after 1 batches/);
      expect(await adapters.contentKeyStore.mark(CONTENT_MIGRATION_CURSOR)).not.toBeNull();
      expect(await adapters.contentKeyStore.mark(CONTENT_SEALED_MARK)).toBeNull();
    } finally {
      await adapters.close();
    }
    // …is completed by the next process that opens the data directory (the CLI's boot here, as the
    // server's would), which migrate-credentials then reports.
    expect((await runCli(dataDir, ['migrate-credentials'])).out).toContain('Message texts already sealed: the event log holds none in clear.');
    // --force scans again and finds nothing in clear.
    expect((await runCli(dataDir, ['migrate-credentials', '--force'])).out).toContainEqual(expect.stringMatching(/^Sealed the message texts of 0 events/));

    // Not one byte of the texts left in the log's files (the free pages and WAL included).
    expect(hits(eventFiles(dataDir), Object.values(texts))).toEqual([]);
    await api.restart();
    const read = async (messageId: number) => (await api.eventStore.readStream(`message-${messageId}`)).events[0].data;
    expect(await read(live)).toMatchObject({ content: texts.live });
    expect(await read(channel)).toMatchObject({ content: texts.channel, recipient: { topic: texts.topic } });
    expect(await read(recent)).toMatchObject({ content: texts.recent });
    expect(await read(longAgo)).toMatchObject({ content: '', renderedContent: '<p>(deleted)</p>' });
    expect(expectSuccess(await api.as('cordelia').get(`/api/v1/messages/${live}`)).message.content).toBe(`<p>${texts.live}</p>`);

    // A rebuild from the sealed log gives the read models the old log gave.
    const liveModels = api.app.get<LiveReadModels>(LIVE_READ_MODELS);
    await new ProjectionRebuilder(api.app.get(EVENT_STORE), liveModels, api.app.get(Projector), api.app.get(LOGGER)).rebuild('all');
    expect(differences(await dumpReadModels(liveModels.readStore, liveModels.userMessages.port), before)).toEqual([]);
  });
});
