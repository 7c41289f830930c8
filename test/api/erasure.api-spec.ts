import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  APP_CONFIG,
  CONTENT_KEY_STORE,
  ContentKeys,
  type ContentKeyStorePort,
  DeletedContentPurge,
  EVENT_STORE,
  exportEventLog,
  LIVE_READ_MODELS,
  LOGGER,
  type LiveReadModels,
  rawEventStore,
  type RecordedEvent,
} from '@app/application';
import type { AppConfig } from '@app/config';
import { loadCredentialKey } from '@app/infrastructure/system/credential-key';
import { ProjectionRebuilder, Projector } from '@app/projections';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectSuccess, runCli } from '../support';
import { differences, dumpReadModels } from '../replay/read-model-dump';

/**
 * Issue 35 item 4: a deleted message's texts leave the event log and every copy of it once its
 * keys are destroyed (docs/security.md, "How erasure works"): the log's files, an export taken
 * before, and a blue/green rebuild's copy.
 */
jest.setTimeout(120_000);

const MESSAGES = '/api/v1/messages';

/** Every file of the data directory whose name starts with one of the prefixes (the database, its -wal and -shm). */
const filesOf = (dir: string, ...prefixes: string[]) => readdirSync(dir).filter((f) => prefixes.some((p) => f.startsWith(p))).map((f) => join(dir, f));
/** The texts found in these files' bytes (as UTF-8 and as JSON would escape nothing here: plain ASCII texts). */
const hitsIn = (files: string[], texts: string[]) =>
  files.flatMap((file) => {
    const bytes = readFileSync(file);
    return texts.filter((t) => bytes.includes(Buffer.from(t))).map((t) => `${file.split('/').pop()}: ${t}`);
  });

const rawAll = async (api: ApiTestClient): Promise<RecordedEvent[]> => rawEventStore(api.eventStore).readAll({ maxCount: 100_000 });

describe('erasure: deleted messages leave the event log and its copies', () => {
  describe('with ARCHIVED_DATA_VACUUMING_DELAY_DAYS=0', () => {
    let api: ApiTestClient;
    const { createChannel, send, sendToChannel, id } = personaHelpers(() => api);
    // Unique texts: the channel message, its topic, its edit, the direct message, a poll's question, a vote.
    const texts = {
      channel: 'zq-channel-text-aurora',
      topic: 'zq-topic-borealis',
      edited: 'zq-edited-text-cassiopeia',
      direct: 'zq-direct-text-draco',
      poll: 'zq-poll-question-eridanus',
      option: 'zq-poll-option-fornax',
    };
    const live = { text: 'zq-live-text-gemini', topic: 'zq-live-topic-hydra' };
    let dataDir: string;
    let exportFile: string;
    let channelMessage: number;
    let directMessage: number;
    let pollMessage: number;

    beforeAll(async () => {
      api = await ApiTestClient.start({ config: { archivedDataVacuumingDelayDays: 0 } });
      dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
      // A user's follow of a topic is their own setting and keeps the topic's name (docs/security.md,
      // "How erasure works"): the senders here follow nothing by themselves.
      for (const who of ['hamlet', 'cordelia']) {
        expectSuccess(await api.as(who).patch('/api/v1/settings', { automatically_follow_topics_policy: 4, automatically_follow_topics_where_mentioned: false, automatically_unmute_topics_in_muted_streams_policy: 4 }));
      }
      await createChannel('hamlet', 'secret plans', { invite_only: true, principals: [id('hamlet'), id('cordelia')] });
      channelMessage = await sendToChannel('hamlet', 'secret plans', texts.topic, texts.channel);
      expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${channelMessage}`, { content: texts.edited }));
      expectSuccess(await api.as('cordelia').post(`${MESSAGES}/${channelMessage}/reactions`, { emoji_name: 'octopus' }));
      pollMessage = await sendToChannel('hamlet', 'secret plans', texts.topic, `/poll ${texts.poll}\n${texts.option}`);
      expectSuccess(await api.as('cordelia').post('/api/v1/submessage', { message_id: pollMessage, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }));
      directMessage = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: texts.direct });
      await sendToChannel('hamlet', 'secret plans', live.topic, live.text);
      // An export (a backup) taken before the deletion.
      exportFile = join(dataDir, '..', `erasure-export-${process.pid}.ndjson`);
      await exportEventLog(api.eventStore, exportFile);
    });
    afterAll(() => api?.close());

    it('the log holds the texts sealed from the start, and every reader sees them in clear', async () => {
      const stored = JSON.stringify((await rawAll(api)).map((e) => e.data));
      expect(stored).toContain('"$sealed"');
      for (const text of [...Object.values(texts), live.text, live.topic]) expect(stored.includes(text) ? text : null).toBeNull();
      const opened = JSON.stringify((await api.eventStore.readAll({ maxCount: 100_000 })).map((e) => e.data));
      for (const text of Object.values(texts)) expect(opened).toContain(text);
      expect(expectSuccess(await api.as('cordelia').get(`${MESSAGES}/${channelMessage}`)).message).toMatchObject({ content: expect.stringContaining(texts.edited), subject: texts.topic });
      expect(hitsIn([exportFile], Object.values(texts))).toEqual([]);
    });

    it('deleting them destroys their keys at once: the log, its WAL, the export taken before and a rebuilt copy hold none of the texts', async () => {
      const keys = api.app.get<ContentKeyStorePort>(CONTENT_KEY_STORE);
      const exported = readFileSync(exportFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; data: { messageId?: number; content?: { $sealed: string } } });
      const deletedIds = new Set([channelMessage, pollMessage, directMessage]);
      const sealedOfDeleted = exported.filter((e) => e.type === 'MessageSent' && deletedIds.has(e.data.messageId!)).map((e) => e.data.content!.$sealed);
      expect(sealedOfDeleted).toHaveLength(3);
      // The rows of their batch keys, as they were before the deletions.
      const batchRowsBefore = await Promise.all([...new Set(sealedOfDeleted.map((keyId) => keyId.split('/')[0]))].map((batchId) => keys.get(batchId)));
      for (const messageId of [channelMessage, pollMessage, directMessage]) expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${messageId}`));
      // The topic keeps its key while it has a message (the live one); deleting that one too empties it.
      const liveMessage = (await api.eventStore.readAll({ maxCount: 100_000 })).find((e) => e.type === 'MessageSent' && (e.data as { content: string }).content === live.text)!;
      expect(liveMessage).toBeDefined();
      // A rebuild replays the log into a new copy: it gets the live message, and no deleted text.
      const liveReadModels = api.app.get<LiveReadModels>(LIVE_READ_MODELS);
      const before = await dumpReadModels(liveReadModels.readStore, liveReadModels.userMessages.port);
      const rebuilt = await new ProjectionRebuilder(api.app.get(EVENT_STORE), liveReadModels, api.app.get(Projector), api.app.get(LOGGER)).rebuild('all');
      expect(rebuilt).toMatchObject({ phase: 'done', error: null });
      expect(differences(await dumpReadModels(liveReadModels.readStore, liveReadModels.userMessages.port), before)).toEqual([]);
      const fetched = expectSuccess(await api.as('cordelia').get(`${MESSAGES}/${liveMessage.data.messageId}`)).message;
      expect(fetched).toMatchObject({ content: `<p>${live.text}</p>`, subject: live.topic });

      // Each deleted message's copy of its topic went with its key; the live message keeps its own.
      const erased = [texts.channel, texts.edited, texts.direct, texts.poll, texts.option];
      const files = [...filesOf(dataDir, 'events.sqlite', 'content-keys.sqlite', rebuilt.copy!), exportFile];
      expect(files.some((f) => f.endsWith('events.sqlite-wal'))).toBe(true);
      expect(hitsIn(files, erased)).toEqual([]);
      const opened = (await api.eventStore.readStream(`message-${channelMessage}`)).events;
      expect(opened.find((e) => e.type === 'MessageSent')!.data).toMatchObject({ content: '', renderedContent: '<p>(deleted)</p>', recipient: { topic: '' } });
      expect(opened.find((e) => e.type === 'MessageContentEdited')!.data).toMatchObject({ prevContent: '', content: '' });

      // The export taken before is as unreadable. Each deleted message was sealed under a key derived
      // from its batch's; the batch's row was rewritten without the batch key and without a key for
      // a deleted message (a process with nothing in memory reads them as erased), and still opens
      // the live message.
      for (const row of batchRowsBefore) {
        expect(row).toEqual(expect.objectContaining({ wrapped: expect.any(String) }));
        const now = await keys.get((row as { keyId: string }).keyId);
        expect(now === 'gone' || (now !== null && now.wrapped !== (row as { wrapped: string }).wrapped)).toBe(true);
      }
      const cold = new ContentKeys(keys, loadCredentialKey(api.app.get<AppConfig>(APP_CONFIG)));
      expect([...(await cold.resolve(sealedOfDeleted)).values()]).toEqual(['gone', 'gone', 'gone']);
      const liveKeyId = exported.find((e) => e.type === 'MessageSent' && e.data.messageId === liveMessage.data.messageId)!.data.content!.$sealed;
      expect([...(await cold.resolve([liveKeyId])).values()]).toEqual([expect.any(Buffer)]);
    });

    it('the topic\'s name goes once its last message is deleted (after the fan-out\'s minute), and a new message there gets a new key', async () => {
      const liveMessage = (await api.eventStore.readAll({ maxCount: 100_000 })).find((e) => e.type === 'MessageSent' && (e.data as { content: string }).content === live.text)!;
      expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${liveMessage.data.messageId}`));
      expect(hitsIn(filesOf(dataDir, 'events.sqlite'), [live.text])).toEqual([]);
      api.clock.advance(61_000);
      const { out } = await runCli(dataDir, ['purge-deleted', '--now', api.clock.now().toISOString()]);
      expect(out.join('\n')).toMatch(/^Destroyed [1-9]\d* keys/);
      await api.restart();
      const sent = (await api.eventStore.readStream(`message-${channelMessage}`)).events[0].data;
      expect(sent.recipient.topic).toBe('');
      expect(hitsIn(filesOf(dataDir, 'events.sqlite', 'content-keys.sqlite'), [texts.topic, live.topic])).toEqual([]);
      const again = await sendToChannel('hamlet', 'secret plans', texts.topic, 'back again');
      expect(expectSuccess(await api.as('hamlet').get(`${MESSAGES}/${again}`)).message.subject).toBe(texts.topic);
    });
  });

  describe('delete_topic, with ARCHIVED_DATA_VACUUMING_DELAY_DAYS=0', () => {
    let api: ApiTestClient;
    beforeAll(async () => (api = await ApiTestClient.start({ config: { archivedDataVacuumingDelayDays: 0 } })));
    afterAll(() => api?.close());

    it('erases every message of the topic and, after the fan-out\'s minute, the topic\'s name (the job at start does it)', async () => {
      const { createChannel, sendToChannel } = personaHelpers(() => api);
      for (const who of ['hamlet', 'iago']) {
        expectSuccess(await api.as(who).patch('/api/v1/settings', { automatically_follow_topics_policy: 4, automatically_follow_topics_where_mentioned: false, automatically_unmute_topics_in_muted_streams_policy: 4 }));
      }
      const streamId = await createChannel('iago', 'doomed', {});
      const topic = 'zq-doomed-topic-sagitta';
      const bodies = ['zq-doomed-first-scorpius', 'zq-doomed-second-taurus'];
      for (const body of bodies) await sendToChannel('iago', 'doomed', topic, body);
      await sendToChannel('iago', 'doomed', 'zq-other-topic-ursa', 'zq-survivor-text-vela');
      expectSuccess(await api.as('iago').post(`/api/v1/streams/${streamId}/delete_topic`, { topic_name: topic }));
      const dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
      expect(hitsIn(filesOf(dataDir, 'events.sqlite'), [...bodies, topic, 'zq-survivor-text-vela'])).toEqual([]);
      const all = () => api.eventStore.readAll({ maxCount: 100_000 });
      const sent = () => all().then((events) => events.filter((e) => e.type === 'MessageSent').map((e) => e.data as { content: string; recipient: { topic: string } }));
      const deletionTopics = () => all().then((events) => events.filter((e) => e.type === 'MessageDeleted').map((e) => (e.data as { topic: string }).topic));
      // The messages went with their keys, their copies of the topic with them...
      expect((await sent()).filter((m) => bodies.includes(m.content) || m.recipient.topic === topic)).toEqual([]);
      // ...and the deletions' copies, which their fan-out reads, go a minute later: the purge job's round at start (as the worker or single process runs it) destroys the topic's key.
      expect(await deletionTopics()).toEqual([topic, topic]);
      api.clock.advance(61_000);
      const job = api.app.get(DeletedContentPurge);
      job.onApplicationBootstrap();
      try {
        for (let i = 0; i < 100 && (await deletionTopics()).includes(topic); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await job.beforeApplicationShutdown();
      }
      expect(await deletionTopics()).toEqual(['', '']);
      expect((await sent()).find((m) => m.content === 'zq-survivor-text-vela')).toMatchObject({ recipient: { topic: 'zq-other-topic-ursa' } });
    });
  });

  describe('with the default delay (30 days)', () => {
    let api: ApiTestClient;
    beforeAll(async () => (api = await ApiTestClient.start()));
    afterAll(() => api?.close());

    it('a deleted message stays in the log (sealed, readable) until purge-deleted runs with a clock past the delay', async () => {
      const { send, id } = personaHelpers(() => api);
      const text = 'zq-kept-for-thirty-days-lyra';
      const messageId = await send('hamlet', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: text });
      expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${messageId}`));
      const dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
      const content = async () => (await api.eventStore.readStream(`message-${messageId}`)).events[0].data.content;
      expect(await content()).toBe(text);
      const deletedAt = api.clock.now().getTime();
      const day = 86_400_000;
      expect((await runCli(dataDir, ['purge-deleted', '--now', new Date(deletedAt + 29 * day).toISOString()])).out).toEqual(['Destroyed 0 keys of deleted messages and topics.']);
      await api.restart();
      expect(await content()).toBe(text);
      expect((await runCli(dataDir, ['purge-deleted', '--now', new Date(deletedAt + 30 * day).toISOString()])).out).toEqual(['Destroyed 1 keys of deleted messages and topics.']);
      await api.restart();
      expect(await content()).toBe('');
      expect(existsSync(join(dataDir, 'content-keys.sqlite'))).toBe(true);
      expect(hitsIn(filesOf(dataDir, 'events.sqlite'), [text])).toEqual([]);
    });
  });
});
