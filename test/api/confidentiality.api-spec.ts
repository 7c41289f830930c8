import { ApiTestClient, expectError, expectSuccess } from '../support';
import type { Response } from 'supertest';
import { personaHelpers } from '@app/testing';

/**
 * S6 (issue 12): what a user may not see never leaks. Iago writes into a shared-history private
 * channel, a protected-history private channel, a public channel the guest is not in, and a
 * direct message to Shiva; each message carries a unique marker. Then every observer who may not
 * see one is sent through every way in — message fetches and narrows (channel, topic, search, id,
 * direct-message, is:*), single-message fetch, edit history, flag changes and flag counts, POST /register's
 * state, channel lists, members and topics, event queues and uploads — and no response text may
 * contain a marker, a private channel's name or a private topic. Positive controls (the
 * subscribers see them) keep the suite from passing vacuously.
 */
describe('confidentiality', () => {
  let api: ApiTestClient;
  const { id, send } = personaHelpers(() => api);
  const M = {
    shared: 'MARKER-SHARED-4411',
    protectedBefore: 'MARKER-PROTECTED-BEFORE-5522',
    protectedAfter: 'MARKER-PROTECTED-AFTER-5523',
    publicOnly: 'MARKER-PUBLIC-6633',
    dm: 'MARKER-DM-7744',
    liveSecret: 'MARKER-LIVE-8855',
    edit: 'MARKER-EDIT-9966',
  };
  const CHANNEL = { shared: 'Vault shared', protected: 'Vault protected', public: 'Town square' };
  const TOPIC = { shared: 'topic-shared-zq', protected: 'topic-protected-zq', dm: '' };
  const ids: Record<string, number> = {};
  const channelIds: Record<string, number> = {};
  let uploadUrl = '';

  const create = async (name: string, principals: string[], options: Record<string, unknown>) => {
    expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }], principals: principals.map(id), ...options }));
    return expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: name })).stream_id as number;
  };

  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius'] });
    channelIds.shared = await create(CHANNEL.shared, ['iago', 'shiva'], { invite_only: true, history_public_to_subscribers: true });
    channelIds.protected = await create(CHANNEL.protected, ['iago', 'shiva'], { invite_only: true, history_public_to_subscribers: false });
    channelIds.public = await create(CHANNEL.public, ['iago', 'hamlet', 'cordelia', 'shiva'], {});
    const { email, apiKey } = api.user('iago');
    const uploaded = await api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from('secret attachment'), 'vault-plan.txt');
    uploadUrl = uploaded.status === 200 ? uploaded.body.url : '';
    ids.shared = await send('iago', { type: 'stream', to: CHANNEL.shared, topic: TOPIC.shared, content: `${M.shared} [plan](${uploadUrl})` });
    ids.protectedBefore = await send('iago', { type: 'stream', to: CHANNEL.protected, topic: TOPIC.protected, content: M.protectedBefore });
    ids.public = await send('iago', { type: 'stream', to: CHANNEL.public, topic: 'general', content: M.publicOnly });
    ids.dm = await send('iago', { type: 'direct', to: JSON.stringify([id('shiva')]), content: M.dm });
    // An edit: the history of the message (old and new content) is as private as the message.
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${ids.shared}`, { content: `${M.shared} ${M.edit} [plan](${uploadUrl})` }));
    for (const id_ of Object.values(ids)) await api.as('iago').post('/api/v1/messages/flags', { messages: JSON.stringify([id_]), op: 'add', flag: 'starred' });
  });
  afterAll(() => api.close());

  /** Every way a user can read messages or their metadata; the bodies concatenated. */
  const everything = async (who: string): Promise<Response[]> => {
    const get = (path: string, query: Record<string, unknown> = {}) => api.as(who).get(path, query);
    const narrows: unknown[][] = [
      [],
      [{ operator: 'channel', operand: CHANNEL.shared }], [{ operator: 'channel', operand: channelIds.shared }],
      [{ operator: 'channel', operand: CHANNEL.protected }], [{ operator: 'channel', operand: channelIds.protected }],
      [{ operator: 'channel', operand: CHANNEL.public }],
      [{ operator: 'channel', operand: channelIds.shared }, { operator: 'topic', operand: TOPIC.shared }],
      [{ operator: 'topic', operand: TOPIC.protected }],
      [{ operator: 'search', operand: 'MARKER' }], [{ operator: 'search', operand: M.dm }], [{ operator: 'search', operand: 'zq' }],
      [{ operator: 'channels', operand: 'public' }], [{ operator: 'is', operand: 'dm' }], [{ operator: 'is', operand: 'starred' }],
      [{ operator: 'is', operand: 'unread' }], [{ operator: 'is', operand: 'mentioned' }],
      [{ operator: 'dm', operand: [id('iago'), id('shiva')] }], [{ operator: 'dm', operand: [id('shiva')] }], [{ operator: 'dm-including', operand: id('shiva') }],
      [{ operator: 'sender', operand: id('iago') }], [{ operator: 'sender', operand: 'iago@acme.test' }],
      ...Object.values(ids).map((m) => [{ operator: 'id', operand: m }]),
      ...Object.values(ids).map((m) => [{ operator: 'near', operand: m }]),
    ];
    const responses: Response[] = [];
    for (const narrow of narrows) {
      for (const anchor of ['newest', 'oldest', 'first_unread']) {
        responses.push(await get('/api/v1/messages', { anchor, num_before: 50, num_after: 50, narrow: JSON.stringify(narrow) }));
      }
    }
    responses.push(await get('/api/v1/messages', { message_ids: JSON.stringify(Object.values(ids)) }));
    for (const m of Object.values(ids)) responses.push(await get(`/api/v1/messages/${m}`));
    for (const m of Object.values(ids)) responses.push(await get(`/api/v1/messages/${m}/history`));
    responses.push(await api.as(who).post('/api/v1/register', {}));
    responses.push(await get('/api/v1/streams'));
    responses.push(await get('/api/v1/streams', { include_all: true }));
    responses.push(await get('/api/v1/users/me/subscriptions', { include_subscribers: true }));
    for (const c of [channelIds.shared, channelIds.protected]) {
      responses.push(await get(`/api/v1/streams/${c}`));
      responses.push(await get(`/api/v1/streams/${c}/members`));
      responses.push(await get(`/api/v1/users/me/${c}/topics`));
    }
    // Zulip's error for an inaccessible name echoes the name the caller typed: refused, not leaked.
    const byName = await get('/api/v1/get_stream_id', { stream: CHANNEL.shared });
    if (!subscribedToShared.has(who) && who !== 'desdemona') expect({ status: byName.status, stream_id: byName.body.stream_id }).toEqual({ status: 400, stream_id: undefined });
    responses.push(await get('/api/v1/drafts'));
    return responses;
  };

  const leaks = (responses: Response[], secrets: string[]) => {
    const found: string[] = [];
    for (const r of responses) {
      const text = r.text ?? JSON.stringify(r.body);
      const { method, path } = (r as unknown as { req: { method: string; path: string } }).req;
      for (const secret of secrets) if (text.includes(secret)) found.push(`${method} ${path} → ${secret}`);
    }
    return found;
  };

  const subscribedToShared = new Set(['iago', 'shiva', 'cordelia']);
  const privateSecrets = [M.shared, M.edit, M.protectedBefore, M.dm, CHANNEL.shared, CHANNEL.protected, TOPIC.shared, TOPIC.protected];

  it('the subscribers and participants see everything (the control)', async () => {
    const seen = (await everything('shiva')).map((r) => r.text).join('\n');
    for (const marker of [M.shared, M.edit, M.protectedBefore, M.dm, M.publicOnly, CHANNEL.shared, CHANNEL.protected]) expect(seen).toContain(marker);
  });

  it('a member outside the private channels and the direct message sees none of them', async () => {
    expect(leaks(await everything('hamlet'), privateSecrets)).toEqual([]);
  });

  it('administrators and owners do not read private channels or others\' direct messages either', async () => {
    // They may administer private channels (name, members), never read their messages.
    expect(leaks(await everything('desdemona'), [M.shared, M.edit, M.protectedBefore, M.dm, TOPIC.shared, TOPIC.protected])).toEqual([]);
  });

  it('a guest sees neither private channels nor public channels he is not in', async () => {
    expect(leaks(await everything('polonius'), [...privateSecrets, M.publicOnly])).toEqual([]);
  });

  it('single-message fetches and flag changes on inaccessible messages are "Invalid message(s)"', async () => {
    for (const [who, hidden] of [['hamlet', [ids.shared, ids.protectedBefore, ids.dm]], ['polonius', [ids.shared, ids.public, ids.dm]], ['desdemona', [ids.shared, ids.dm]]] as const) {
      for (const m of hidden) {
        expectError(await api.as(who).get(`/api/v1/messages/${m}`), 'Invalid message(s)');
        expectError(await api.as(who).get(`/api/v1/messages/${m}/history`), 'Invalid message(s)');
        expectError(await api.as(who).post('/api/v1/messages/flags', { messages: JSON.stringify([m]), op: 'add', flag: 'starred' }), 'Invalid message(s)');
      }
    }
  });

  it('marking a private channel read as an outsider is refused, and changes nobody\'s unread counts', async () => {
    const before = expectSuccess(await api.as('shiva').post('/api/v1/register', { fetch_event_types: JSON.stringify(['message']) })).unread_msgs;
    const refused = await api.as('hamlet').post('/api/v1/mark_stream_as_read', { stream_id: channelIds.shared });
    expect(refused.status).toBe(400);
    const narrowed = await api.as('hamlet').post('/api/v1/messages/flags/narrow', {
      anchor: 'oldest', num_before: 0, num_after: 1000, op: 'add', flag: 'read', narrow: JSON.stringify([{ operator: 'channel', operand: channelIds.protected }]),
    });
    if (narrowed.status === 200) expect(narrowed.body.processed_count).toBe(0);
    else expect(narrowed.status).toBe(400);
    expect(expectSuccess(await api.as('shiva').post('/api/v1/register', { fetch_event_types: JSON.stringify(['message']) })).unread_msgs).toEqual(before);
  });

  it('unread counts of outsiders do not count messages they cannot see', async () => {
    for (const who of ['hamlet', 'polonius', 'desdemona']) {
      const { unread_msgs } = expectSuccess(await api.as(who).post('/api/v1/register', {}));
      const counted = [...unread_msgs.streams, ...unread_msgs.pms, ...unread_msgs.huddles].flatMap((u: { unread_message_ids: number[] }) => u.unread_message_ids);
      for (const m of [ids.shared, ids.protectedBefore, ids.dm]) {
        expect(counted).not.toContain(m);
        expect(unread_msgs.mentions).not.toContain(m);
      }
      expect(unread_msgs.count).toBe(counted.length);
    }
  });

  it('protected history: a later subscriber sees only what was sent after joining; shared history: everything', async () => {
    expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: CHANNEL.protected }, { name: CHANNEL.shared }], principals: [id('cordelia')] }));
    ids.protectedAfter = await send('iago', { type: 'stream', to: CHANNEL.protected, topic: TOPIC.protected, content: M.protectedAfter });
    const seen = await everything('cordelia');
    expect(leaks(seen, [M.protectedBefore, M.dm])).toEqual([]);
    const text = seen.map((r) => r.text).join('\n');
    expect(text).toContain(M.protectedAfter);
    expect(text).toContain(M.shared);
    expectError(await api.as('cordelia').get(`/api/v1/messages/${ids.protectedBefore}`), 'Invalid message(s)');
  });

  it("a former subscriber loses a private channel's history; what they received stays in their own views, as in Zulip", async () => {
    expectSuccess(await api.as('iago').delete('/api/v1/users/me/subscriptions', { subscriptions: JSON.stringify([CHANNEL.shared, CHANNEL.protected]), principals: JSON.stringify([id('cordelia')]) }));
    const seen = await everything('cordelia');
    // The shared channel's history (sent before Cordelia joined, read through the channel) is gone.
    expect(leaks(seen, [M.shared, M.edit, TOPIC.shared])).toEqual([]);
    // A message she received while subscribed keeps its row: Zulip lists it in her message views...
    expect(seen.map((r) => r.text).join('\n')).toContain(M.protectedAfter);
    // ...but has_message_access (subscribed and received) refuses it one by one.
    expectError(await api.as('cordelia').get(`/api/v1/messages/${ids.shared}`), 'Invalid message(s)');
    expectError(await api.as('cordelia').get(`/api/v1/messages/${ids.protectedAfter}`), 'Invalid message(s)');
  });

  it('event queues carry nothing an outsider may not see', async () => {
    const queues: Record<string, string> = {};
    for (const who of ['hamlet', 'polonius', 'desdemona', 'shiva']) queues[who] = expectSuccess(await api.as(who).post('/api/v1/register', {})).queue_id;
    await send('iago', { type: 'stream', to: CHANNEL.shared, topic: TOPIC.shared, content: M.liveSecret });
    await send('iago', { type: 'direct', to: JSON.stringify([id('shiva')]), content: `${M.liveSecret} dm` });
    await api.as('iago').post('/api/v1/messages/flags', { messages: JSON.stringify([ids.shared]), op: 'remove', flag: 'starred' });
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${ids.protectedBefore}`, { content: `${M.liveSecret} edit`, topic: `${TOPIC.protected}-moved` }));
    const poll = (who: string) => api.as(who).get('/api/v1/events', { queue_id: queues[who], last_event_id: -1, dont_block: true });
    const control = await poll('shiva');
    expect(control.text).toContain(M.liveSecret);
    for (const who of ['hamlet', 'polonius', 'desdemona']) expect(leaks([await poll(who)], [M.liveSecret, TOPIC.shared, TOPIC.protected])).toEqual([]);
  });

  it('an upload linked only in a private channel is not readable by outsiders', async () => {
    if (!uploadUrl) return; // uploads not available in this build
    const read = (who: string) => api.as(who).get(uploadUrl);
    expect((await read('shiva')).status).toBe(200);
    for (const who of ['hamlet', 'polonius', 'desdemona']) {
      const response = await read(who);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.text ?? '').not.toContain('secret attachment');
    }
  });
});
