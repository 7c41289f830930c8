import Database from 'better-sqlite3';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { APP_CONFIG, DeciderRunner, SCHEDULER, SNAPSHOT_STORE, type SnapshotStorePort, STORAGE_SCRUBBER, type StorageScrubberPort } from '@app/application';
import type { TimerScheduler } from '@app/infrastructure';
import type { AppConfig } from '@app/config';
import { messageStream } from '@app/domain';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * Issue 35 item 4, the read-model half: a deleted message (DELETE /messages/{id}, delete_topic)
 * leaves every read model at once — its content, topic, rendering, edit and move history,
 * reactions, submessages, flags, attachment links and search entry — and every snapshot; and,
 * after a WAL checkpoint, no file of the data directory but the event log holds its text.
 */
jest.setTimeout(120_000);

const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const MESSAGES = '/api/v1/messages';

/** Unique words (lower case, ending in a digit: neither case folding nor the stemmer changes them). */
const MARK = {
  dm: 'zqdmsent1',
  dmEdit: 'zqdmedit2',
  topic: 'zqtopicvault3',
  priv: 'zqprivsent4',
  privEdit: 'zqprivedit5',
  pollQuestion: 'zqpollq6',
  pollOption: 'zqpollopt7',
  pollNewOption: 'zqpollopt8',
  publicTopic: 'zqtopicpub9',
  publicContent: 'zqtopicmsg10',
  movedFrom: 'zqmovedfrom11',
  movedTo: 'zqmovedto12',
  movedContent: 'zqmovedmsg13',
  scheduled: 'zqscheduled14',
};
const MARKERS = Object.values(MARK);

/** Every file under the directory, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/** Every row of every table of a SQLite database (FTS5 shadow tables included), as text, by table. */
function dumpSqlite(file: string): Map<string, string> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    const dump = new Map<string, string>();
    for (const { name } of tables) {
      const rows = db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).raw().all();
      dump.set(name, JSON.stringify(rows, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : typeof v === 'bigint' ? v.toString() : v)));
    }
    return dump;
  } finally {
    db.close();
  }
}

/** Every document of every collection of the MongoDB read store (servers mode only). */
async function dumpMongo(config: AppConfig): Promise<Map<string, string>> {
  const { MongoClient } = await import('mongodb');
  const client = await MongoClient.connect(config.mongodbUri);
  try {
    const db = client.db(config.mongodbDb);
    const dump = new Map<string, string>();
    for (const { name } of await db.listCollections().toArray()) dump.set(name, JSON.stringify(await db.collection(name).find({}).toArray()));
    return dump;
  } finally {
    await client.close();
  }
}

const hitsIn = (dump: Map<string, string>, where: string): string[] =>
  [...dump].flatMap(([table, text]) => MARKERS.filter((m) => text.includes(m)).map((m) => `${where} ${table}: ${m}`));

describe('a deleted message leaves every read model at once', () => {
  let api: ApiTestClient;
  let config: AppConfig;
  const ids: Record<string, number> = {};
  let pathId: string;

  const { id, send, sendToChannel } = personaHelpers(() => api);

  beforeAll(async () => {
    api = await ApiTestClient.start();
    config = api.app.get<AppConfig>(APP_CONFIG);
    // Every command stores a snapshot of the stream it read: the message's own included.
    api.app.get(DeciderRunner).snapshotEvery = 1;
    // Topic visibility policies are the user's own settings, which Zulip keeps when a topic's
    // messages are deleted (docs/security.md, "Read models"): none is made here, so that every
    // copy of a topic's name below is one that must go.
    for (const who of ['hamlet', 'cordelia']) {
      expectSuccess(await api.as(who).patch('/api/v1/settings', { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 4 }));
    }
    for (const [name, inviteOnly] of [['Vault', true], ['Denmark', false]] as const) {
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name }], principals: [id('hamlet'), id('cordelia'), id('iago')], invite_only: inviteOnly }));
    }

    // A direct message, edited, reacted to, read and starred.
    ids.dm = await send('hamlet', { type: 'direct', to: [id('cordelia')], content: `${MARK.dm} hello` });
    expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${ids.dm}`, { content: `${MARK.dmEdit} hello again` }));
    expectSuccess(await api.as('cordelia').post(`${MESSAGES}/${ids.dm}/reactions`, { emoji_name: 'smile' }));
    expectSuccess(await api.as('cordelia').post(`${MESSAGES}/flags`, { messages: [ids.dm], op: 'add', flag: 'starred' }));

    // A private-channel message linking an upload, edited, reacted to, read.
    const { url } = expectSuccess(await api.http.post('/api/v1/user_uploads').auth(api.user('hamlet').email, api.user('hamlet').apiKey).attach('file', Buffer.from('file bytes'), 'notes.txt'));
    pathId = (url as string).replace('/user_uploads/', '');
    ids.priv = await sendToChannel('hamlet', 'Vault', MARK.topic, `${MARK.priv} see [notes](${url})`);
    expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${ids.priv}`, { content: `${MARK.privEdit} see [notes](${url}) again` }));
    expectSuccess(await api.as('cordelia').post(`${MESSAGES}/${ids.priv}/reactions`, { emoji_name: 'heart' }));
    expectSuccess(await api.as('cordelia').post(`${MESSAGES}/flags`, { messages: [ids.priv], op: 'add', flag: 'read' }));

    // A poll in the same topic, with a vote and a new option.
    ids.poll = await sendToChannel('hamlet', 'Vault', MARK.topic, `/poll ${MARK.pollQuestion}\n- ${MARK.pollOption}`);
    expectSuccess(await api.as('cordelia').post('/api/v1/submessage', { message_id: ids.poll, msg_type: 'widget', content: JSON.stringify({ type: 'new_option', idx: 1, option: MARK.pollNewOption }) }));
    expectSuccess(await api.as('cordelia').post('/api/v1/submessage', { message_id: ids.poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }));

    // A message moved to another topic (move history), and a topic of a public channel.
    ids.moved = await sendToChannel('hamlet', 'Denmark', MARK.movedFrom, MARK.movedContent);
    expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${ids.moved}`, { topic: MARK.movedTo, propagate_mode: 'change_one', send_notification_to_new_thread: false }));
    ids.public1 = await sendToChannel('hamlet', 'Denmark', MARK.publicTopic, `${MARK.publicContent} one`);
    ids.public2 = await sendToChannel('cordelia', 'Denmark', MARK.publicTopic, `${MARK.publicContent} two`);
    ids.kept = await sendToChannel('hamlet', 'Denmark', 'kept topic', 'this one stays');

    // A scheduled direct message, delivered (its scheduled message goes with the message: Zulip's cascade).
    const deliverAt = Math.floor(api.clock.now().getTime() / 1000) + 300;
    const scheduledId = expectSuccess(await api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: MARK.scheduled, scheduled_delivery_timestamp: deliverAt })).scheduled_message_id as number;
    api.clock.advance(301_000);
    await api.settled();
    await api.background.get<TimerScheduler>(SCHEDULER).runDue();
    const { messages } = expectSuccess(await api.as('cordelia').get(MESSAGES, { anchor: 'newest', num_before: 1, num_after: 0 }));
    expect(messages).toEqual([expect.objectContaining({ content: `<p>${MARK.scheduled}</p>` })]);
    ids.scheduled = messages[0].id;
    expect(scheduledId).toEqual(expect.any(Number));
    expect(expectSuccess(await api.as('iago').get(`/api/v1/attachments`)).attachments).toEqual([]);
    const own = expectSuccess(await api.as('hamlet').get('/api/v1/attachments')).attachments;
    expect(own).toEqual([expect.objectContaining({ path_id: pathId, message_ids: [ids.priv] })]);
    // Before the delete, the texts are there (so the scans below can find them).
    if (config.readStoreDriver !== 'servers') expect(hitsIn(readModelDumps(), '').length).toBeGreaterThan(0);
    else expect(hitsIn(await dumpMongo(config), '').length).toBeGreaterThan(0);

    for (const messageId of [ids.dm, ids.priv, ids.poll, ids.moved, ids.scheduled]) expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${messageId}`));
    const denmark = await api.channelId('Denmark');
    expect(expectSuccess(await api.as('iago').post(`/api/v1/streams/${denmark}/delete_topic`, { topic_name: MARK.publicTopic })).complete).toBe(true);
  });
  afterAll(() => api?.close());

  /** Every table of every SQLite database of the data directory but the event log. */
  function readModelDumps(): Map<string, string> {
    const dump = new Map<string, string>();
    for (const file of filesUnder(config.dataDir).filter((f) => f.endsWith('.sqlite') && !f.endsWith('events.sqlite'))) {
      for (const [table, text] of dumpSqlite(file)) dump.set(`${file.slice(config.dataDir.length + 1)} ${table}`, text);
    }
    return dump;
  }

  it('the API answers as if the messages never were', async () => {
    for (const messageId of [ids.dm, ids.priv, ids.poll, ids.moved, ids.scheduled, ids.public1, ids.public2]) {
      expectError(await api.as('hamlet').get(`${MESSAGES}/${messageId}`), 'Invalid message(s)');
    }
    expect(expectSuccess(await api.as('hamlet').get(`${MESSAGES}/${ids.kept}`)).message.content).toBe('<p>this one stays</p>');
    for (const word of [MARK.dm, MARK.privEdit, MARK.publicContent]) {
      const { messages } = expectSuccess(await api.as('hamlet').get(MESSAGES, { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'search', operand: word }] }));
      expect(messages).toEqual([]);
    }
    // The upload stays its owner's, linked to no message (Zulip's unclaimed attachment).
    const own = expectSuccess(await api.as('hamlet').get('/api/v1/attachments')).attachments;
    expect(own).toEqual([expect.objectContaining({ path_id: pathId, message_ids: [] })]);
  });

  it('no table of any read-model database holds a text of them', async () => {
    const dump = readModelDumps();
    // The embedded read models (on the servers set, MongoDB's collections below).
    expect([...dump.keys()].some((k) => k.startsWith('read-models'))).toBe(config.readStoreDriver !== 'servers');
    expect(hitsIn(dump, 'sqlite')).toEqual([]);
    // The attachment's own document no longer names the deleted message.
    const attachments = [...dump].find(([table]) => table.endsWith('rm_attachments'))?.[1] ?? '';
    if (config.readStoreDriver !== 'servers') expect(attachments).toContain(pathId);
    expect(attachments).toContain('\\"message_ids\\":[]');
    expect(attachments).not.toContain(`links:${ids.priv}`);
    if (config.readStoreDriver === 'servers') expect(hitsIn(await dumpMongo(config), 'mongodb')).toEqual([]);
  });

  it('no snapshot is left of the deleted messages', async () => {
    const snapshots = api.app.get<SnapshotStorePort>(SNAPSHOT_STORE);
    for (const messageId of [ids.dm, ids.priv, ids.poll, ids.moved, ids.scheduled, ids.public1, ids.public2]) {
      expect(await snapshots.load(messageStream(messageId), 'message')).toBeUndefined();
      expect(await snapshots.load(`message_reactions-${messageId}`, 'reactions')).toBeUndefined();
      expect(await snapshots.load(`message_submessages-${messageId}`, 'submessages')).toBeUndefined();
    }
  });

  /** Files of the data directory but the event log (the log half is another step's) that hold a text of the messages. */
  function fileHits(): string[] {
    const hits: string[] = [];
    for (const file of filesUnder(config.dataDir).filter((f) => !/events\.sqlite(-wal|-shm|-journal)?$/.test(f))) {
      const bytes = readFileSync(file);
      for (const marker of MARKERS) if (bytes.includes(Buffer.from(marker))) hits.push(`${file.slice(config.dataDir.length + 1)}: ${marker}`);
    }
    return hits;
  }

  it('soon after, by itself (the checkpoint the deletion asked for), no file of the data directory but the event log holds a text of them', async () => {
    let hits = fileHits();
    for (let waited = 0; hits.length > 0 && waited < 5000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      hits = fileHits();
    }
    expect(hits).toEqual([]);
    // The WAL files are empty, and a scrub on demand goes through the read models and the snapshots.
    for (const wal of filesUnder(config.dataDir).filter((f) => /(read-models|snapshots)[^/]*\.sqlite-wal$/.test(f))) expect(statSync(wal).size).toBe(0);
    const embedded = config.readStoreDriver !== 'servers';
    expect(await api.background.get<StorageScrubberPort>(STORAGE_SCRUBBER).scrubNow()).toEqual({ databases: embedded ? 2 : 0, incomplete: 0 });
  });
});
