import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type request from 'supertest';
import { PUSH_KEY, TINY_PNG } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';
import { DartDecoders } from '../support/dart-decoders';
import { coverageWorkload, randomWorkload } from '../replay/workload';

/**
 * The Zulip mobile app (zulip-flutter) decodes every response and event with strict decoders
 * (docs/clients.md, "zulip-flutter (the mobile app)"). This suite reads the app's own decoder
 * sources at run time (lib/api of a zulip-flutter git directory; nothing of the app is in this
 * repository) and holds the server's answers against them with test/support/dart-decoders.ts:
 * POST /register with the app's exact parameters on a populated organization, GET /messages and
 * GET /messages/{id} as the app asks for them, and every event of a workload through the app's
 * Event.fromJson dispatch.
 *
 *   ZULIP_FLUTTER_GIT_DIR=/path/to/zulip-flutter/.git npx jest test/e2e/zulip-flutter-decoders.e2e-spec.ts
 */
const GIT_DIR = process.env.ZULIP_FLUTTER_GIT_DIR ?? '/work/.mirror/zulip+zulip-flutter/repo';

/**
 * lib/api/route/events.dart registerQueue: the parameters the app sends (no event_types: everything);
 * lib/model/store.dart calls it with `idleQueueTimeout: .mobile`, which encodeParameters sends
 * JSON-encoded: `"mobile"`, quotes included.
 */
export const FLUTTER_REGISTER_PARAMS = {
  idle_queue_timeout: '"mobile"',
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
};

/**
 * State the app reads at start that the shared workload leaves empty (it undoes what it does):
 * kept after it, so that /register and /messages carry each kind of item at least once.
 */
async function populate(api: ApiTestClient): Promise<void> {
  const id = (name: string) => api.user(name).userId;
  const ok = async (response: Promise<request.Response> | request.Response) => expectSuccess(await response);
  await ok(api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Elsinore', description: 'The **castle**' }], principals: [id('iago'), id('hamlet'), id('polonius')] }));
  await ok(api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Secret' }], principals: [id('iago'), id('hamlet')], invite_only: true }));
  const channel = (await ok(api.as('iago').get('/api/v1/get_stream_id', { stream: 'Elsinore' }))).stream_id as number;
  const send = async (who: string, body: Record<string, unknown>) => (await ok(api.as(who).post('/api/v1/messages', body))).id as number;
  const hamlet = (await ok(api.as('hamlet').get('/api/v1/users/me'))).full_name as string; // the workload renamed him
  const first = await send('iago', { type: 'stream', to: 'Elsinore', topic: 'ghosts', content: `Who is there? @**${hamlet}** @**all**` });
  await send('polonius', { type: 'stream', to: 'Elsinore', topic: '', content: 'A message in the general chat (empty topic)' });
  await send('iago', { type: 'stream', to: 'Secret', topic: 'plots', content: 'private channel' });
  await send('polonius', { type: 'direct', to: JSON.stringify([id('hamlet'), id('iago')]), content: 'a group DM' });
  await send('hamlet', { type: 'direct', to: JSON.stringify([id('hamlet')]), content: 'a note to self' });
  await send('polonius', { type: 'direct', to: JSON.stringify([id('hamlet')]), content: '/me waves' });
  await ok(api.as('iago').patch(`/api/v1/messages/${first}`, { content: `Who is there? (edited) @**${hamlet}**` }));
  await ok(api.as('iago').patch(`/api/v1/messages/${first}`, { topic: 'the ghost', propagate_mode: 'change_all' }));
  const { email, apiKey } = api.user('iago');
  await ok(api.http.post('/api/v1/realm/emoji/ghost').auth(email, apiKey).attach('f1', TINY_PNG, 'ghost.png'));
  await ok(api.as('hamlet').post(`/api/v1/messages/${first}/reactions`, { emoji_name: 'ghost' }));
  await ok(api.as('polonius').post(`/api/v1/messages/${first}/reactions`, { emoji_name: 'thumbs_up' }));
  await ok(api.as('hamlet').post(`/api/v1/messages/${first}/reactions`, { emoji_name: 'zulip' }));
  await ok(api.as('hamlet').post('/api/v1/messages/flags', { messages: JSON.stringify([first]), op: 'add', flag: 'starred' }));
  await ok(api.as('hamlet').post(`/api/v1/users/me/muted_users/${id('polonius')}`));
  await ok(api.as('hamlet').post('/api/v1/saved_snippets', { title: 'Greeting', content: 'Good morrow' }));
  await ok(api.as('hamlet').post('/api/v1/drafts', { drafts: [{ type: 'private', to: [id('iago')], topic: '', content: 'draft', timestamp: 1_700_000_000 }] }));
  await ok(api.as('hamlet').post('/api/v1/users/me/status', { status_text: 'thinking', emoji_name: 'ghost', away: true }));
  await ok(api.as('polonius').post('/api/v1/users/me/status', { status_text: 'at court', emoji_name: 'thumbs_up' }));
  await ok(api.as('hamlet').post('/api/v1/user_topics', { stream_id: channel, topic: 'the ghost', visibility_policy: 3 }));
  await ok(api.as('hamlet').post('/api/v1/user_topics', { stream_id: channel, topic: '', visibility_policy: 1 }));
  await ok(api.as('hamlet').patch(`/api/v1/users/me/subscriptions/${channel}`, { property: 'pin_to_top', value: true }));
  await ok(api.as('hamlet').post('/api/v1/users/me/alert_words', { alert_words: ['ghost'] }));
  const field = (await ok(api.as('iago').post('/api/v1/realm/profile_fields', { name: 'Castle', field_type: 1 }))).id as number;
  const choice = (await ok(api.as('iago').post('/api/v1/realm/profile_fields', { name: 'House', field_type: 3, field_data: JSON.stringify({ a: { text: 'Denmark', order: '1' } }) }))).id as number;
  await ok(api.as('iago').post('/api/v1/realm/profile_fields', { name: 'GitHub', field_type: 7, field_data: JSON.stringify({ subtype: 'github' }) }));
  await ok(api.as('hamlet').patch('/api/v1/users/me/profile_data', { data: [{ id: field, value: 'Elsinore' }, { id: choice, value: 'a' }] }));
  await ok(api.as('hamlet').post('/api/v1/user_groups/create', { name: 'court', description: 'The court', members: [id('hamlet'), id('polonius')] }));
  await ok(api.as('iago').post('/api/v1/realm/profile_fields', { name: 'Motto', field_type: 1, display_in_profile_summary: true }));
  // A move to another channel, unread again (a mention, a group DM), a time zone, channel typing.
  const moving = await send('iago', { type: 'stream', to: 'Elsinore', topic: 'ghosts', content: 'to be moved' });
  await ok(api.as('iago').patch(`/api/v1/messages/${moving}`, { stream_id: (await ok(api.as('iago').get('/api/v1/get_stream_id', { stream: 'Secret' }))).stream_id, topic: 'moved', propagate_mode: 'change_one' }));
  const groupDm = await send('iago', { type: 'direct', to: JSON.stringify([id('hamlet'), id('polonius')]), content: 'another group DM' });
  await ok(api.as('hamlet').post('/api/v1/messages/flags', { messages: JSON.stringify([first, groupDm]), op: 'add', flag: 'read' }));
  await ok(api.as('hamlet').post('/api/v1/messages/flags', { messages: JSON.stringify([first, groupDm]), op: 'remove', flag: 'read' }));
  await ok(api.as('hamlet').patch('/api/v1/settings', { timezone: 'Europe/Copenhagen' }));
  await ok(api.as('iago').post('/api/v1/typing', { op: 'start', type: 'stream', stream_id: channel, topic: 'the ghost' }));
  // A poll with a vote, a new option and a new question (the app renders polls); a to-do list (which it does not).
  const poll = await send('iago', { type: 'stream', to: 'Elsinore', topic: 'votes', content: '/poll Is it a ghost?\nYes\nNo' });
  const submessage = (who: string, messageId: number, content: object) => ok(api.as(who).post('/api/v1/submessage', { message_id: messageId, msg_type: 'widget', content: JSON.stringify(content) }));
  await submessage('hamlet', poll, { type: 'vote', key: 'canned,0', vote: 1 });
  await submessage('polonius', poll, { type: 'new_option', idx: 1, option: 'A rat' });
  await submessage('polonius', poll, { type: 'vote', key: `${id('polonius')},1`, vote: 1 });
  await submessage('hamlet', poll, { type: 'vote', key: 'canned,0', vote: -1 });
  await submessage('iago', poll, { type: 'question', question: 'What is it?' });
  const todo = await send('iago', { type: 'stream', to: 'Elsinore', topic: 'votes', content: '/todo Watch\nThe battlements: at midnight' });
  await submessage('hamlet', todo, { type: 'new_task', key: 1, task: 'Swear', desc: '', completed: false });
}

function exportLibApi(): { dir: string; commit: string } | { skip: string } {
  if (!existsSync(GIT_DIR)) return { skip: `no zulip-flutter git directory at ${GIT_DIR} (set ZULIP_FLUTTER_GIT_DIR)` };
  const dir = mkdtempSync(join(tmpdir(), 'zulip-flutter-'));
  // `git archive | tar` may complain about a binary asset outside lib/api; the check below is what matters.
  execSync(`git --git-dir="${GIT_DIR}" archive HEAD lib/api | tar -x -C "${dir}" || true`, { stdio: 'ignore', shell: '/bin/sh' });
  if (!existsSync(join(dir, 'lib/api/model/events.g.dart'))) return { skip: `could not export lib/api from ${GIT_DIR}` };
  const commit = execSync(`git --git-dir="${GIT_DIR}" log -1 --format="%h %ci"`).toString().trim();
  return { dir, commit };
}

const exported = exportLibApi();
if ('skip' in exported) console.warn(`zulip-flutter decoder check skipped: ${exported.skip}`);
const describeWithApp = 'skip' in exported ? describe.skip : describe;

describeWithApp('zulip-flutter decodes what the server sends (lib/api decoders, read at run time)', () => {
  const { dir, commit } = exported as { dir: string; commit: string };
  const PERSONAS = ['hamlet', 'iago', 'cordelia', 'desdemona', 'polonius', 'shiva'];
  let decoders: DartDecoders;
  let api: ApiTestClient;
  const queues = new Map<string, string>();
  const responses: { events: Record<string, any>[] }[] = [];

  beforeAll(async () => {
    decoders = new DartDecoders(join(dir, 'lib/api'));
    process.stderr.write(`zulip-flutter ${commit}: ${decoders.generated.size} generated decoders, ${decoders.enumMaps.size} enum maps\n`);
    // A heartbeat after a short idle long poll (Zulip, and this server by default: about a minute).
    api = await ApiTestClient.start({ config: { pushNotificationsBouncerUrl: 'https://push.example.com', eventHeartbeatMs: 300 } });
    for (const name of PERSONAS) queues.set(name, expectSuccess(await api.as(name).post('/api/v1/register', FLUTTER_REGISTER_PARAMS)).queue_id);
    // The app sends include_deactivated_groups, so a group deactivation reaches it as `user_group`
    // `update` `{deactivated: true}`; a queue without the capability gets Zulip's `remove`
    // instead, which the app also decodes (UserGroupRemoveEvent): held against it too.
    const { include_deactivated_groups: _dropped, ...withoutDeactivatedGroups } = FLUTTER_REGISTER_PARAMS.client_capabilities;
    const legacyQueue = expectSuccess(await api.as('hamlet').post('/api/v1/register', { ...FLUTTER_REGISTER_PARAMS, client_capabilities: withoutDeactivatedGroups })).queue_id as string;
    await coverageWorkload(api);
    await randomWorkload(api, 1, 40);
    await populate(api);
    // What the shared workload does not do: presence, typing.
    expectSuccess(await api.as('cordelia').post('/api/v1/users/me/presence', { status: 'active', new_user_input: true, slim_presence: true }));
    expectSuccess(await api.as('polonius').post('/api/v1/users/me/presence', { status: 'idle' }));
    expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'start', to: JSON.stringify([api.user('cordelia').userId]) }));
    expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'stop', to: JSON.stringify([api.user('cordelia').userId]) }));
    for (const name of PERSONAS) {
      const response = await api.as(name).get('/api/v1/events', { queue_id: queues.get(name), last_event_id: -1, dont_block: true });
      // A persona the workload deactivated has lost its queue with its account.
      if (response.status === 200) responses.push(response.body);
    }
    responses.push(expectSuccess(await api.as('hamlet').get('/api/v1/events', { queue_id: legacyQueue, last_event_id: -1, dont_block: true })) as { events: Record<string, any>[] });
    // An idle long poll on a fresh queue: the heartbeat.
    const idle = expectSuccess(await api.as('hamlet').post('/api/v1/register', FLUTTER_REGISTER_PARAMS)).queue_id as string;
    // A late event (nothing is expected) would answer a poll first: poll again after it.
    for (let last = -1, polls = 0; polls < 5; polls++) {
      const body = expectSuccess(await api.as('hamlet').get('/api/v1/events', { queue_id: idle, last_event_id: last })) as { events: Record<string, any>[] };
      responses.push(body);
      if (body.events.some((e) => e.type === 'heartbeat')) break;
      last = Math.max(last, ...body.events.map((e) => e.id as number));
    }
  }, 300_000);

  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The personas still active after the workload (it deactivates some). */
  const active = async () => {
    const names: string[] = [];
    for (const name of PERSONAS) if ((await api.as(name).get('/api/v1/users/me')).status === 200) names.push(name);
    return names;
  };

  it('POST /register with the app parameters, on a populated organization, decodes as InitialSnapshot', async () => {
    const problems: string[] = [];
    for (const name of await active()) {
      const snapshot = expectSuccess(await api.as(name).post('/api/v1/register', FLUTTER_REGISTER_PARAMS));
      if (name === 'hamlet') process.stderr.write(`zulip-flutter /register: ignored_parameters_unsupported ${JSON.stringify(snapshot.ignored_parameters_unsupported ?? [])}\n`);
      // idle_queue_timeout (feature level 481) is read: a 12-hour queue.
      expect(snapshot.ignored_parameters_unsupported ?? []).not.toContain('idle_queue_timeout');
      expect(snapshot.idle_queue_timeout_secs).toBe(12 * 3600);
      // the check is not vacuous: the organization has the things the app reads
      if (name === 'iago') {
        expect(snapshot.streams.length).toBeGreaterThan(1);
        expect(snapshot.realm_users.length).toBeGreaterThan(3);
        expect(snapshot.realm_user_groups.length).toBeGreaterThan(0);
      }
      problems.push(...decoders.check('InitialSnapshot', snapshot).map((p) => `${name}: ${p}`));
    }
    expect(problems).toEqual([]);
  });

  it('GET /messages with the app parameters decodes as GetMessagesResult, and GET /messages/{id} as GetMessageResult', async () => {
    const problems: string[] = [];
    let decoded = 0;
    const seenMessageKeys = new Set<string>();
    for (const name of await active()) {
      // lib/api/model/narrow.dart: the operators and `is` operands the app sends (feature level ≥ 271 forms).
      const channel = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'Elsinore' })).stream_id;
      const anyMessage = expectSuccess(await api.as(name).get('/api/v1/messages', { narrow: '[]', anchor: 'newest', num_before: 1, num_after: 0 })).messages[0]?.id ?? 1;
      const narrows = [
        [],
        ...['dm', 'starred', 'mentioned', 'alerted', 'followed', 'resolved', 'unread'].map((operand) => [{ operator: 'is', operand }]),
        [{ operator: 'channel', operand: channel }],
        [{ operator: 'channel', operand: channel }, { operator: 'topic', operand: 'the ghost' }],
        [{ operator: 'channel', operand: channel }, { operator: 'topic', operand: '' }],
        [{ operator: 'dm', operand: [api.user('hamlet').userId, api.user('iago').userId] }],
        [{ operator: 'with', operand: anyMessage }],
        [{ operator: 'id', operand: anyMessage }],
        [{ operator: 'search', operand: 'ghost' }],
      ];
      for (const narrow of narrows) {
        for (const anchor of ['newest', 'first_unread', 'oldest']) {
          const response = await api.as(name).get('/api/v1/messages', { narrow: JSON.stringify(narrow), anchor, num_before: anchor === 'oldest' ? 0 : 100, num_after: anchor === 'newest' ? 0 : 100, allow_empty_topic_name: true });
          if (response.status !== 200) problems.push(`${name} ${JSON.stringify(narrow)} ${anchor}: HTTP ${response.status} ${response.body.msg}`);
          if (response.status !== 200) continue;
          const body = expectSuccess(response);
          decoded += body.messages.length;
          for (const m of body.messages) for (const key of Object.keys(m)) seenMessageKeys.add(key);
          for (const m of body.messages) if (m.edit_history?.some((e: any) => 'prev_topic' in e)) seenMessageKeys.add('edit_history[].prev_topic');
          problems.push(...decoders.check('GetMessagesResult', body).map((p) => `${name} ${JSON.stringify(narrow)} ${anchor}: ${p}`));
          for (const message of body.messages.slice(0, 3)) {
            const one = expectSuccess(await api.as(name).get(`/api/v1/messages/${message.id}`, { allow_empty_topic_name: true }));
            problems.push(...decoders.check('GetMessageResult', one).map((p) => `${name} GET /messages/${message.id}: ${p}`));
          }
        }
      }
    }
    expect(decoded).toBeGreaterThan(20);
    // the app's optional and hand-read fields were present at least once
    expect([...seenMessageKeys]).toEqual(expect.arrayContaining(['edit_history', 'edit_history[].prev_topic', 'last_edit_timestamp', 'reactions', 'submessages', 'topic_links']));
    // Polls went through Submessage.parseSubmessagesJson: the widget and each kind of poll event.
    expect([...decoders.classesSeen]).toEqual(expect.arrayContaining(['Submessage', 'PollWidgetData', 'PollVoteEventSubmessage', 'PollNewOptionEventSubmessage', 'PollQuestionEventSubmessage']));
    expect([...new Set(problems)]).toEqual([]);
  });

  it('every event of the workload decodes through Event.fromJson; the types the app maps to UnexpectedEvent are listed', () => {
    const problems = new Set<string>();
    for (const body of responses) for (const p of decoders.check('GetEventsResult', { ...body, events: [] })) problems.add(`GET /events: ${p}`);
    const events = responses.flatMap((body) => body.events);
    const decodedKinds = new Set<string>();
    const unexpected = new Set<string>();
    for (const event of events) {
      const kind = `${event.type}/${event.op ?? ''}`;
      if (decoders.eventClass(event)) decodedKinds.add(kind);
      else unexpected.add(kind);
      for (const p of decoders.check('Event', event)) problems.add(`${kind}: ${p}`);
    }
    process.stderr.write(`zulip-flutter events: ${events.length} events; decoded kinds: ${[...decodedKinds].sort().join(' ')}\n`);
    process.stderr.write(`zulip-flutter events: kinds the app reads as UnexpectedEvent (ignored): ${[...unexpected].sort().join(' ')}\n`);
    for (const expected of ['message/', 'update_message/', 'delete_message/', 'update_message_flags/add', 'update_message_flags/remove', 'subscription/add', 'subscription/update', 'stream/create', 'realm_user/update', 'user_topic/', 'typing/start', 'reaction/add', 'user_group/add', 'saved_snippets/add', 'user_status/', 'muted_users/', 'custom_profile_fields/', 'presence/', 'stream/delete', 'realm_emoji/add', 'realm_emoji/update_one', 'user_group/remove', 'heartbeat/', 'channel_folder/update']) {
      expect([...decodedKinds]).toContain(expected);
    }
    // Each property PATCH /channel_folders/{id} can change, one event each as Zulip sends them.
    const folderChanges = events.filter((e) => e.type === 'channel_folder' && e.op === 'update').map((e) => Object.keys(e.data).sort().join(','));
    expect(new Set(folderChanges)).toEqual(new Set(['name', 'description,rendered_description', 'is_archived']));
    expect(events.filter((e) => e.type === 'user_group' && e.op === 'update' && e.data.deactivated === true).length).toBeGreaterThan(0);
    expect([...problems]).toEqual([]);
  });

  it('the other responses the app decodes (lib/api/route/*.dart, with its parameters) decode', async () => {
    const problems: string[] = [];
    const check = (what: string, cls: string, body: unknown) => problems.push(...decoders.check(cls, body).map((p) => `${what}: ${p}`));
    const as = api.as('iago');
    check('GET /server_settings', 'GetServerSettingsResult', expectSuccess(await api.http.get('/api/v1/server_settings')));
    check('POST /fetch_api_key', 'FetchApiKeyResult', expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: api.user('iago').email, password: 'iago-password' })));
    check('GET /users/me', 'GetOwnUserResult', expectSuccess(await as.get('/api/v1/users/me')));
    const sent = expectSuccess(await as.post('/api/v1/messages', { type: 'stream', to: 'Elsinore', topic: 'checks', content: 'hello' }));
    check('POST /messages', 'SendMessageResult', sent);
    check('PATCH /messages/{id}', 'UpdateMessageResult', expectSuccess(await as.patch(`/api/v1/messages/${sent.id}`, { content: 'hello again' })));
    check('POST /messages/flags', 'UpdateMessageFlagsResult', expectSuccess(await as.post('/api/v1/messages/flags', { messages: JSON.stringify([sent.id]), op: 'add', flag: 'starred' })));
    check('POST /messages/flags/narrow', 'UpdateMessageFlagsForNarrowResult',
      expectSuccess(await as.post('/api/v1/messages/flags/narrow', { anchor: 'oldest', include_anchor: true, num_before: 0, num_after: 1000, narrow: '[]', op: 'add', flag: 'read' })));
    expectSuccess(await as.patch('/api/v1/realm', { enable_read_receipts: true })); // the workload turned them off
    check('GET /messages/{id}/read_receipts', 'GetReadReceiptsResult', expectSuccess(await as.get(`/api/v1/messages/${sent.id}/read_receipts`)));
    const channel = expectSuccess(await as.get('/api/v1/get_stream_id', { stream: 'Elsinore' })).stream_id;
    check('GET /users/me/{id}/topics', 'GetChannelTopicsResult', expectSuccess(await as.get(`/api/v1/users/me/${channel}/topics`, { allow_empty_topic_name: true })));
    const { email, apiKey } = api.user('iago');
    const upload = expectSuccess(await api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from('hi'), 'hi.txt'));
    check('POST /user_uploads', 'UploadFileResult', upload);
    check('GET /user_uploads/{realm}/{file} (temporary URL)', 'GetFileTemporaryUrlResult', expectSuccess(await as.get(`/api/v1${upload.url}`)));
    check('POST /saved_snippets', 'CreateSavedSnippetResult', expectSuccess(await as.post('/api/v1/saved_snippets', { title: 'T', content: 'C' })));
    check('POST /users/me/presence', 'UpdatePresenceResult', expectSuccess(await as.post('/api/v1/users/me/presence', { status: 'active', new_user_input: true, ping_only: false, slim_presence: true, last_update_id: -1 })));
    const snapshot = expectSuccess(await as.post('/api/v1/register', FLUTTER_REGISTER_PARAMS));
    const emojiData = await api.http.get(new URL(snapshot.server_emoji_data_url).pathname);
    expect(emojiData.status).toBe(200);
    check('GET server_emoji_data_url', 'ServerEmojiData', emojiData.body);
    expect(problems).toEqual([]);
  });

  it('the requests the app makes (lib/api/route/*.dart, encoded as its encodeParameters does) succeed; the unsupported ones are listed', async () => {
    /** core.dart encodeParameters: a RawParameter as is, anything else JSON-encoded; GET in the query, the rest in the form body. */
    const raw = (value: string) => ({ raw: value });
    const encode = (params: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' && v !== null && 'raw' in v ? (v as { raw: string }).raw : JSON.stringify(v)]));
    const { email, apiKey } = api.user('hamlet');
    const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, params: Record<string, unknown> = {}) => {
      const r = api.http[method](`/api/v1/${path}`).auth(email, apiKey);
      return method === 'get' ? r.query(encode(params)) : r.type('form').send(encode(params));
    };
    const channel = expectSuccess(await call('get', 'get_stream_id', { stream: raw('Elsinore') })).stream_id as number;
    const other = api.user('polonius').userId;
    const outcomes: [string, request.Response][] = [];
    const run = async (what: string, response: Promise<request.Response> | request.Response) => {
      const r = await response;
      outcomes.push([what, r]);
      return r.body;
    };
    const sent = await run('sendMessage (channel)', call('post', 'messages', { type: raw('channel'), to: channel, topic: raw('app'), content: raw('from the app'), queue_id: raw('nope:1'), local_id: raw('0.1'), read_by_sender: true }));
    await run('sendMessage (direct)', call('post', 'messages', { type: raw('direct'), to: [other], content: raw('a DM from the app'), read_by_sender: true }));
    await run('updateMessage (content)', call('patch', `messages/${sent.id}`, { content: raw('edited in the app') }));
    await run('updateMessage (move)', call('patch', `messages/${sent.id}`, { topic: raw('app moved'), propagate_mode: raw('change_all'), send_notification_to_old_thread: false, send_notification_to_new_thread: true }));
    await run('addReaction', call('post', `messages/${sent.id}/reactions`, { emoji_name: raw('thumbs_up'), emoji_code: raw('1f44d'), reaction_type: raw('unicode_emoji') }));
    await run('removeReaction', call('delete', `messages/${sent.id}/reactions`, { emoji_name: raw('thumbs_up'), emoji_code: raw('1f44d'), reaction_type: raw('unicode_emoji') }));
    await run('updateMessageFlags', call('post', 'messages/flags', { messages: [sent.id], op: raw('add'), flag: raw('starred') }));
    await run('subscribeToChannel', call('post', 'users/me/subscriptions', { subscriptions: [{ name: 'App channel' }] }));
    await run('updateSubscriptionSettings', call('post', 'users/me/subscriptions/properties', { subscription_data: [{ stream_id: channel, property: 'is_muted', value: true }] }));
    await run('unsubscribeFromChannel', call('delete', 'users/me/subscriptions', { subscriptions: ['App channel'] }));
    await run('updateUserTopic', call('post', 'user_topics', { stream_id: channel, topic: raw('app moved'), visibility_policy: 3 }));
    await run('setTypingStatus (channel)', call('post', 'typing', { op: raw('start'), type: raw('channel'), stream_id: channel, topic: raw('app moved') }));
    await run('setTypingStatus (direct)', call('post', 'typing', { op: raw('stop'), type: raw('direct'), to: [other] }));
    await run('updateStatus', call('post', 'users/me/status', { status_text: raw('on the app'), emoji_name: raw('thumbs_up'), emoji_code: raw('1f44d'), reaction_type: raw('unicode_emoji') }));
    await run('updateSettings', call('patch', 'settings', { twenty_four_hour_time: true, emojiset: raw('google'), display_emoji_reaction_users: true }));
    await run('addFcmToken', call('post', 'users/me/android_gcm_reg_id', { token: raw('fcm-token-from-app') }));
    await run('removeFcmToken', call('delete', 'users/me/android_gcm_reg_id', { token: raw('fcm-token-from-app') }));
    await run('addApnsToken', call('post', 'users/me/apns_device_token', { token: raw('c0ffee0123456789abcdef'), appid: raw('org.zulip.Zulip') }));
    await run('removeApnsToken', call('delete', 'users/me/apns_device_token', { token: raw('c0ffee0123456789abcdef') }));
    // The app offers "Report" once realm_moderation_request_channel_id is set (action_sheet.dart).
    expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'App reports' }], invite_only: true }));
    const reportsChannel = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'App reports' })).stream_id;
    expectSuccess(await api.as('iago').patch('/api/v1/realm', { moderation_request_channel_id: reportsChannel }));
    await run('reportMessage', call('post', `messages/${sent.id}/report`, { report_type: raw('spam') }));
    await run('reportMessage (other, with description)', call('post', `messages/${sent.id}/report`, { report_type: raw('other'), description: raw('Reported from the app') }));
    // route/submessage.dart sendSubmessage (`content` JSON-encoded, not raw): a vote on a poll sent from the app, by its sender and by another reader.
    const poll = await run('sendMessage (poll)', call('post', 'messages', { type: raw('channel'), to: channel, topic: raw('app poll'), content: raw('/poll Ghost?\nYes\nNo'), read_by_sender: true }));
    await run('sendSubmessage', call('post', 'submessage', { message_id: poll.id, msg_type: raw('widget'), content: { type: 'vote', key: 'canned,1', vote: 1 } }));
    const polled = expectSuccess(await api.as('polonius').post('/api/v1/submessage', { message_id: poll.id, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }));
    expect(polled.result).toBe('success');
    const withPoll = expectSuccess(await call('get', `messages/${poll.id}`, { allow_empty_topic_name: true }));
    expect(withPoll.message.submessages).toHaveLength(3);
    expect(decoders.check('GetMessageResult', withPoll)).toEqual([]);
    // push_device.dart: registerClientDevice, then registerPushDevice with the device's id (push key
    // and token fields), and removeClientDevice at logout (actions.dart).
    const device = await run('registerClientDevice', call('post', 'register_client_device'));
    expect(decoders.check('RegisterClientDeviceResult', device)).toEqual([]);
    await run('registerPushDevice', call('post', 'mobile_push/register', {
      device_id: device.device_id, push_key_id: 2408, push_key: raw(PUSH_KEY),
      token_kind: raw('fcm'), token_id: raw('hGsEWGmyyfI='), bouncer_public_key: raw('mm4F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM='), encrypted_push_registration: raw('c2VhbGVk'),
    }));
    await run('removeClientDevice', call('post', 'remove_client_device', { device_id: device.device_id }));
    await run('deleteMessage', api.http.delete(`/api/v1/messages/${sent.id}`).auth(api.user('iago').email, api.user('iago').apiKey));
    // Every request the app makes is implemented here (docs/clients.md).
    const KNOWN_UNSUPPORTED: string[] = [];
    const failed = outcomes.filter(([, r]) => r.status !== 200 || r.body?.result !== 'success').map(([what, r]) => `${what}: HTTP ${r.status} ${r.body?.msg}`);
    process.stderr.write(`zulip-flutter requests not supported: ${failed.filter((f) => KNOWN_UNSUPPORTED.some((k) => f.startsWith(`${k}:`))).join('; ')}\n`);
    expect(failed.filter((f) => !KNOWN_UNSUPPORTED.some((k) => f.startsWith(`${k}:`)))).toEqual([]);
  });

  it('the checker is not vacuous: a missing key, a wrong JSON type, an enum value outside its map and an unknown message type are caught', async () => {
    const snapshot = expectSuccess(await api.as('iago').post('/api/v1/register', FLUTTER_REGISTER_PARAMS));
    expect(decoders.check('InitialSnapshot', snapshot)).toEqual([]);
    const broken = structuredClone(snapshot);
    delete broken.realm_users[0].full_name;
    broken.zulip_feature_level = String(broken.zulip_feature_level);
    broken.realm_wildcard_mention_policy = 4; // not in _$RealmWildcardMentionPolicyEnumMap
    broken.user_settings.emojiset = 'not-a-set'; // fine: that enum has unknownValue
    broken.subscriptions[0].color = 'red';
    expect(decoders.check('InitialSnapshot', broken).sort()).toEqual([
      '$.realm_users[].full_name: required String, got absent',
      '$.realm_wildcard_mention_policy: 4 is not in _$RealmWildcardMentionPolicyEnumMap (1, 2, 3, 5, 6, 7)',
      '$.subscriptions[].color: expected a color "#rrggbb", got "red"',
      '$.zulip_feature_level: expected num, got "494"',
    ].sort());
    const messages = expectSuccess(await api.as('iago').get('/api/v1/messages', { narrow: '[]', anchor: 'newest', num_before: 5, num_after: 0 }));
    messages.messages[0].type = 'channel';
    expect(decoders.check('GetMessagesResult', messages)).toEqual(['$.messages[].type: Message.fromJson: unexpected message type "channel"']);
    // Polls: a widget by someone else than the sender, widget content without a type, a vote with a bad key, an unknown poll event type.
    const poll = expectSuccess(await api.as('iago').get('/api/v1/messages', { narrow: JSON.stringify([{ operator: 'topic', operand: 'votes' }, { operator: 'search', operand: 'ghost' }]), anchor: 'newest', num_before: 1, num_after: 0 }));
    const { message_id: pollId, sender_id: pollSender } = poll.messages[0].submessages[0];
    const widget = (content: object, senderId = pollSender) => ({ id: 1, message_id: pollId, sender_id: senderId, msg_type: 'widget', content: JSON.stringify(content) });
    const withSubmessages = (submessages: object[]) => ({ ...poll, messages: [{ ...poll.messages[0], submessages }] });
    const pollWidget = { widget_type: 'poll', extra_data: { question: 'Q', options: ['a'] } };
    expect(decoders.check('GetMessagesResult', withSubmessages([widget(pollWidget, pollSender + 1)]))).toEqual([expect.stringContaining("asserts the first submessage is the message sender's")]);
    expect(decoders.check('GetMessagesResult', withSubmessages([widget({ extra_data: {} })]))).toEqual(['$.messages[].submessages[].content.widget_type: required String, got absent']);
    expect(decoders.check('GetMessagesResult', withSubmessages([widget(pollWidget), widget({ type: 'vote', key: 'a,b', vote: 1 })]))).toEqual([expect.stringContaining('PollVoteEventSubmessage key "a,b"')]);
    expect(decoders.check('GetMessagesResult', withSubmessages([widget(pollWidget), widget({ type: 'strike', key: '1' })]))).toEqual([expect.stringContaining('PollEventSubmessageType.fromRawString of "strike"')]);
    expect(decoders.check('GetMessagesResult', withSubmessages([widget({ widget_type: 'todo', extra_data: {} }), widget({ type: 'strike', key: '1' })]))).toEqual([]);
    expect(decoders.check('Event', { id: 1, type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: 1 } })).toEqual([
      expect.stringContaining('TypingEvent.fromJson requires streamId'),
    ]);
  });

  it('the checker understood every decoder pattern it met (nothing accepted unchecked)', () => {
    process.stderr.write(`zulip-flutter classes checked: ${[...decoders.classesSeen].sort().join(' ')}\n`);
    process.stderr.write(`zulip-flutter optional keys never sent: ${decoders.neverSent().join(' ')}\n`);
    expect([...decoders.unknownPatterns]).toEqual([]);
  });
});
