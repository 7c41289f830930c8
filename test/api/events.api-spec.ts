import { EventQueues } from '@app/application';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** POST /register's queue, GET /events, DELETE /events, POST /typing (≈ zerver/tests/test_event_system.py). */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';

describe('event queues', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'polonius'] })));
  afterAll(() => api.close());

  const { id, register, events } = personaHelpers(() => api);

  it('registers a queue with last_event_id -1 and answers events after it', async () => {
    const { queue_id, last_event_id } = await register('hamlet', { event_types: ['muted_users'] });
    expect(typeof queue_id).toBe('string');
    expect(last_event_id).toBe(-1);
    expect(await events('hamlet', queue_id)).toEqual([]);
    expectSuccess(await api.as('hamlet').post(`/api/v1/users/me/muted_users/${id('polonius')}`));
    const got = await events('hamlet', queue_id);
    expect(got).toEqual([{ id: 0, type: 'muted_users', muted_users: [{ id: id('polonius'), timestamp: expect.any(Number) }] }]);
    expectSuccess(await api.as('hamlet').delete(`/api/v1/users/me/muted_users/${id('polonius')}`));
    // Acknowledging 0 prunes it; the next event is 1.
    expect(await events('hamlet', queue_id, 0)).toEqual([{ id: 1, type: 'muted_users', muted_users: [] }]);
    expect(await events('hamlet', queue_id, 1)).toEqual([]);
  });

  it('delivers only the requested event types', async () => {
    const { queue_id } = await register('hamlet', { event_types: ['drafts'] });
    expectSuccess(await api.as('hamlet').post(`/api/v1/users/me/muted_users/${id('polonius')}`));
    expectSuccess(await api.as('hamlet').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'x' }] }));
    const got = await events('hamlet', queue_id);
    expect(got.map((e) => e.type)).toEqual(['drafts']);
    expectSuccess(await api.as('hamlet').delete(`/api/v1/users/me/muted_users/${id('polonius')}`));
  });

  it('wakes a long poll when an event arrives', async () => {
    const { queue_id } = await register('cordelia', { event_types: ['drafts'] });
    const poll = api.as('cordelia').get('/api/v1/events', { queue_id, last_event_id: -1 });
    await new Promise((r) => setTimeout(r, 50));
    expectSuccess(await api.as('cordelia').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'woken' }] }));
    const body = expectSuccess(await poll);
    expect(body.events).toEqual([expect.objectContaining({ id: 0, type: 'drafts', op: 'add' })]);
    expect(body.queue_id).toBe(queue_id);
  });

  it('refuses a fetch without last_event_id at once (400), even from a queue with no events', async () => {
    const { queue_id } = await register('hamlet', { event_types: ['muted_users'] });
    const started = Date.now();
    expectError(await api.as('hamlet').get('/api/v1/events', { queue_id }), "Missing 'last_event_id' argument", { code: 'BAD_REQUEST', status: 400 });
    expect(Date.now() - started).toBeLessThan(5000);
    // Checked before the queue (validate_fetch_query): an unknown queue gets the same answer.
    expectError(await api.as('hamlet').get('/api/v1/events', { queue_id: 'nope:1', dont_block: true }), "Missing 'last_event_id' argument", { code: 'BAD_REQUEST' });
    // The queue is untouched: events still arrive from -1.
    expectSuccess(await api.as('hamlet').post(`/api/v1/users/me/muted_users/${id('polonius')}`));
    expect((await events('hamlet', queue_id)).map((e) => e.type)).toEqual(['muted_users']);
    expectSuccess(await api.as('hamlet').delete(`/api/v1/users/me/muted_users/${id('polonius')}`));
  });

  it('answers BAD_EVENT_QUEUE_ID for an unknown queue and for another user\'s queue', async () => {
    expectError(await api.as('hamlet').get('/api/v1/events', { queue_id: 'nope:1', last_event_id: -1, dont_block: true }), 'Bad event queue ID: nope:1', {
      code: 'BAD_EVENT_QUEUE_ID',
      status: 400,
    });
    const res = await api.as('hamlet').get('/api/v1/events', { queue_id: 'nope:1', last_event_id: -1, dont_block: true });
    expect(res.body.queue_id).toBe('nope:1');
    const { queue_id } = await register('cordelia');
    expectError(await api.as('hamlet').get('/api/v1/events', { queue_id, last_event_id: -1, dont_block: true }), `Bad event queue ID: ${queue_id}`, { code: 'BAD_EVENT_QUEUE_ID' });
    expectError(await api.as('hamlet').delete('/api/v1/events', { queue_id }), `Bad event queue ID: ${queue_id}`, { code: 'BAD_EVENT_QUEUE_ID' });
  });

  it('refuses an acknowledgement older than what was pruned, and an id never queued', async () => {
    const { queue_id } = await register('hamlet', { event_types: ['drafts'] });
    for (const content of ['a', 'b']) expectSuccess(await api.as('hamlet').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content }] }));
    expect((await events('hamlet', queue_id, 0)).map((e) => e.id)).toEqual([1]);
    expectError(await api.as('hamlet').get('/api/v1/events', { queue_id, last_event_id: -1, dont_block: true }), 'An event newer than -1 has already been pruned!');
    expectError(await api.as('hamlet').get('/api/v1/events', { queue_id, last_event_id: 5, dont_block: true }), 'Event 5 was not in this queue');
  });

  it('deletes a queue', async () => {
    const { queue_id } = await register('hamlet');
    expectSuccess(await api.as('hamlet').delete('/api/v1/events', { queue_id }));
    expectError(await api.as('hamlet').get('/api/v1/events', { queue_id, last_event_id: -1, dont_block: true }), `Bad event queue ID: ${queue_id}`, { code: 'BAD_EVENT_QUEUE_ID' });
  });

  it('requires queue_id', async () => {
    expectError(await api.as('hamlet').get('/api/v1/events', { dont_block: true }), "Missing 'queue_id' argument", { code: 'REQUEST_VARIABLE_MISSING' });
  });


  describe('message events', () => {
    let denmark: number;
    beforeAll(async () => {
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [id('hamlet'), id('cordelia')] }));
      const streams = expectSuccess(await api.as('iago').get('/api/v1/streams', { include_all: true })).streams as { name: string; stream_id: number }[];
      denmark = streams.find((s) => s.name === 'Denmark')!.stream_id;
    });

    it('carries each recipient\'s flags, and local_message_id to the sending queue only', async () => {
      const mine = await register('hamlet', { event_types: ['message'] });
      const other = await register('hamlet', { event_types: ['message'] });
      const theirs = await register('cordelia', { event_types: ['message'] });
      const sent = expectSuccess(
        await api.as('hamlet').post('/api/v1/messages', {
          type: 'stream', to: denmark, topic: 'echo', content: '@**Cordelia Lear** hi', queue_id: mine.queue_id, local_id: '12.01',
        }),
      );
      const [own] = await events('hamlet', mine.queue_id);
      expect(own).toMatchObject({ type: 'message', local_message_id: '12.01', message: { id: sent.id, stream_id: denmark, subject: 'echo' } });
      // The flags each recipient's GET /messages shows.
      expect(own.flags).toEqual(expectSuccess(await api.as('hamlet').get(`/api/v1/messages/${sent.id}`)).message.flags);
      expect(own.message).not.toHaveProperty('flags');
      const [second] = await events('hamlet', other.queue_id);
      expect(second).not.toHaveProperty('local_message_id');
      const [received] = await events('cordelia', theirs.queue_id);
      expect(received).toMatchObject({ type: 'message', message: { id: sent.id } });
      expect(received).not.toHaveProperty('local_message_id');
      expect(received.flags).toEqual(expectSuccess(await api.as('cordelia').get(`/api/v1/messages/${sent.id}`)).message.flags);
      expect(received.flags).toContain('mentioned');
    });
  });

  it('shows the empty topic by its display name unless the client declares empty_topic_name', async () => {
    expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Empty topics' }], principals: [id('hamlet'), id('cordelia')] }));
    const modern = await register('cordelia', { event_types: ['message'], client_capabilities: { empty_topic_name: true } });
    const legacy = await register('cordelia', { event_types: ['message'] });
    expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'Empty topics', topic: '', content: 'no topic' }));
    expect((await events('cordelia', modern.queue_id))[0].message.subject).toBe('');
    expect((await events('cordelia', legacy.queue_id))[0].message.subject).toBe('general chat');
  });

  it('sends two subscription updates for is_muted / in_home_view (feature level 139)', async () => {
    expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Muting' }] }));
    const { stream_id } = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'Muting' }));
    const { queue_id } = await register('hamlet', { event_types: ['subscription'] });
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id, property: 'in_home_view', value: false }] }));
    expect(await events('hamlet', queue_id)).toEqual([
      { id: 0, type: 'subscription', op: 'update', stream_id, property: 'in_home_view', value: false },
      { id: 1, type: 'subscription', op: 'update', stream_id, property: 'is_muted', value: true },
    ]);
  });

  it('sends realm update_dict for settings, and update for the name', async () => {
    const { queue_id } = await register('cordelia', { event_types: ['realm'] });
    expectSuccess(await api.as('iago').patch('/api/v1/realm', { message_content_edit_limit_seconds: 1200, name: 'Acme Events' }));
    expect(await events('cordelia', queue_id)).toEqual(
      expect.arrayContaining([
        { id: expect.any(Number), type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 1200 } },
        { id: expect.any(Number), type: 'realm', op: 'update', property: 'name', value: 'Acme Events' },
      ]),
    );
  });

  it('sends topics_policy with the legacy mandatory_topics in one update_dict, as Zulip', async () => {
    const { queue_id } = await register('cordelia', { event_types: ['realm'] });
    expectSuccess(await api.as('iago').patch('/api/v1/realm', { topics_policy: 'disable_empty_topic' }));
    expect(await events('cordelia', queue_id)).toEqual([
      { id: 0, type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: 'disable_empty_topic', mandatory_topics: true } },
    ]);
  });

  it('sends user_topic when a send follows the topic automatically', async () => {
    expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Following' }] }));
    const { stream_id } = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'Following' }));
    // AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_ON_SEND.
    expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { automatically_follow_topics_policy: 2 }));
    const { queue_id } = await register('hamlet', { event_types: ['user_topic'] });
    const sent = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: stream_id, topic: 'followed by sending', content: 'hi' }));
    expect(sent.automatic_new_visibility_policy).toBe(3);
    expect(await events('hamlet', queue_id)).toEqual([
      { id: 0, type: 'user_topic', stream_id, topic_name: 'followed by sending', last_updated: expect.any(Number), visibility_policy: 3 },
    ]);
    expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { automatically_follow_topics_policy: 4 }));
  });

  it('applies the register narrow to message events, with Zulip\'s operators', async () => {
    for (const name of ['Narrowed', 'Elsewhere']) {
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name }], principals: [id('hamlet'), id('cordelia')] }));
    }
    const { queue_id } = await register('cordelia', { event_types: ['message'], narrow: [['stream', 'narrowed'], ['topic', 'news']] });
    for (const [to, topic] of [['Narrowed', 'news'], ['Elsewhere', 'news'], ['Narrowed', 'gossip'], ['Narrowed', 'big news today']]) {
      expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to, topic, content: `${to}/${topic}` }));
    }
    expect((await events('cordelia', queue_id)).map((e) => e.message.subject)).toEqual(['news', 'big news today']);
    const dms = await register('cordelia', { event_types: ['message'], narrow: [['is', 'dm']] });
    expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'psst' }));
    expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'Narrowed', topic: 'news', content: 'loud' }));
    expect((await events('cordelia', dms.queue_id)).map((e) => e.message.type)).toEqual(['private']);
    expectError(await api.as('cordelia').post('/api/v1/register', { narrow: [['search', 'x']] }), 'Operator search not supported.');
    expectError(await api.as('cordelia').post('/api/v1/register', { narrow: [['is', 'followed']] }), 'Operand followed not supported.');
    // `with` is resolved by GET /messages (update_narrow_terms_containing_with_operator), not by
    // /register: Zulip's check_narrow_for_events refuses it like any operator it does not filter on.
    expectError(await api.as('cordelia').post('/api/v1/register', { narrow: [['with', '1']] }), 'Operator with not supported.');
  });

  describe('POST /typing', () => {
    it('delivers typing start and stop to the recipients of a direct conversation', async () => {
      const { queue_id } = await register('cordelia', { event_types: ['typing'] });
      expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'start', to: JSON.stringify([id('cordelia')]) }));
      expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'stop', type: 'direct', to: JSON.stringify([id('cordelia')]) }));
      const got = await events('cordelia', queue_id);
      const sender = { user_id: id('hamlet'), email: api.user('hamlet').email };
      expect(got).toEqual([
        { id: 0, type: 'typing', message_type: 'direct', op: 'start', sender, recipients: expect.arrayContaining([{ user_id: id('cordelia'), email: api.user('cordelia').email }, sender]) },
        expect.objectContaining({ id: 1, op: 'stop' }),
      ]);
    });

    it('skips users who turned receives_typing_notifications off', async () => {
      const { queue_id } = await register('polonius', { event_types: ['typing'] });
      expectSuccess(await api.as('polonius').patch('/api/v1/settings', { receives_typing_notifications: false }));
      expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'start', to: JSON.stringify([id('polonius')]) }));
      expect(await events('polonius', queue_id)).toEqual([]);
      expectSuccess(await api.as('polonius').patch('/api/v1/settings', { receives_typing_notifications: true }));
    });

    it('delivers channel typing to subscribers whose clients declare stream_typing_notifications', async () => {
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Typing room' }], principals: [id('hamlet'), id('cordelia')] }));
      const { stream_id } = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'Typing room' }));
      const capable = await register('cordelia', { event_types: ['typing'], client_capabilities: { stream_typing_notifications: true } });
      const legacy = await register('cordelia', { event_types: ['typing'] });
      expectSuccess(await api.as('hamlet').post('/api/v1/typing', { op: 'start', type: 'stream', stream_id, topic: 'plans' }));
      expect(await events('cordelia', capable.queue_id)).toEqual([
        { id: 0, type: 'typing', message_type: 'stream', op: 'start', sender: { user_id: id('hamlet'), email: api.user('hamlet').email }, stream_id, topic: 'plans' },
      ]);
      expect(await events('cordelia', legacy.queue_id)).toEqual([]);
      expectError(await api.as('polonius').post('/api/v1/typing', { op: 'start', type: 'channel', stream_id: 99999, topic: 'x' }), 'Invalid channel ID');
    });

    it('validates as Zulip does', async () => {
      expectError(await api.as('hamlet').post('/api/v1/typing', { op: 'start' }), "Missing 'to' argument");
      expectError(await api.as('hamlet').post('/api/v1/typing', { op: 'start', to: '[]' }), "Empty 'to' list");
      expectError(await api.as('hamlet').post('/api/v1/typing', { op: 'start', to: '[99999]' }), 'Invalid user ID 99999');
      expectError(await api.as('hamlet').post('/api/v1/typing', { op: 'start', type: 'stream', topic: 't' }), "Missing 'stream_id' argument");
      expectError(await api.as('hamlet').post('/api/v1/typing', { op: 'start', type: 'stream', stream_id: 1 }), 'Missing topic');
      expectError(await api.as('hamlet').post('/api/v1/typing', { op: 'dance', to: '[1]' }), 'Invalid op');
      expectError(await api.as('hamlet').post('/api/v1/typing', { to: '[1]' }), "Missing 'op' argument");
    });
  });

  it('keeps a queue of a given lifespan at least 10 minutes (Zulip clamps queue_lifespan_secs)', async () => {
    const { queue_id, idle_queue_timeout_secs } = await register('hamlet', { queue_lifespan_secs: 1 });
    expect(api.appFor('hamlet').get(EventQueues).get(queue_id)?.lifespanMs).toBe(600_000);
    expect(idle_queue_timeout_secs).toBe(600);
  });
  describe('idle_queue_timeout (feature level 481)', () => {
    const queuesOf = (who: string) => api.appFor(who).get(EventQueues);

    it('accepts seconds or "mobile" (JSON-encoded as zulip-flutter sends it, or bare) and answers idle_queue_timeout_secs', async () => {
      const cases: [unknown, number][] = [
        [undefined, 600],
        ['"mobile"', 12 * 3600],
        ['mobile', 12 * 3600],
        [3600, 3600],
        [30, 30],
        [7 * 24 * 3600, 7 * 24 * 3600],
        [30 * 24 * 3600, 7 * 24 * 3600], // capped at MAX_QUEUE_TIMEOUT_SECS
      ];
      for (const [value, secs] of cases) {
        const body = await register('hamlet', value === undefined ? { event_types: ['heartbeat'] } : { event_types: ['heartbeat'], idle_queue_timeout: value });
        expect({ value, secs: body.idle_queue_timeout_secs }).toEqual({ value, secs });
        expect(body.ignored_parameters_unsupported).toBeUndefined();
        expect(queuesOf('hamlet').get(body.queue_id)?.lifespanMs).toBe(secs * 1000);
        expectSuccess(await api.as('hamlet').delete('/api/v1/events', { queue_id: body.queue_id }));
      }
      // It wins over the older queue_lifespan_secs.
      const both = await register('hamlet', { idle_queue_timeout: 45, queue_lifespan_secs: 3600 });
      expect(both.idle_queue_timeout_secs).toBe(45);
    });

    it('refuses anything else, and creates no queue', async () => {
      const before = queuesOf('cordelia').size;
      for (const value of [0, -5, 1.5, '"desktop"', 'true', '[60]', '{"secs": 60}', 'null', '1e300']) {
        expectError(await api.as('cordelia').post('/api/v1/register', { idle_queue_timeout: value }), 'Invalid idle_queue_timeout', { code: 'BAD_REQUEST', status: 400 });
      }
      for (const value of ['desktop', '', '12 hours']) {
        expectError(await api.as('cordelia').post('/api/v1/register', { idle_queue_timeout: value }), 'idle_queue_timeout is not valid JSON', { code: 'BAD_REQUEST', status: 400 });
      }
      expect(queuesOf('cordelia').size).toBe(before);
    });

    // Last in this file: collecting ahead of time also collects the earlier tests' queues.
    it('collects a queue after its own timeout: a short one first, a "mobile" one survives the default 10 minutes', async () => {
      const short = await register('polonius', { event_types: ['muted_users'], idle_queue_timeout: 30 });
      const plain = await register('polonius', { event_types: ['muted_users'] });
      const mobile = await register('polonius', { event_types: ['muted_users'], idle_queue_timeout: '"mobile"' });
      const alive = async (queueId: string) => (await api.as('polonius').get('/api/v1/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).status === 200;
      const gc = (afterMs: number) => queuesOf('polonius').collectIdle(Date.now() + afterMs);

      gc(20_000);
      expect([await alive(short.queue_id), await alive(plain.queue_id), await alive(mobile.queue_id)]).toEqual([true, true, true]);
      // A poll restarts the idle clock; 31 s after it the short queue is gone, the others stay.
      gc(31_000);
      expectError(await api.as('polonius').get('/api/v1/events', { queue_id: short.queue_id, last_event_id: -1, dont_block: true }), `Bad event queue ID: ${short.queue_id}`, {
        code: 'BAD_EVENT_QUEUE_ID',
      });
      expect([await alive(plain.queue_id), await alive(mobile.queue_id)]).toEqual([true, true]);
      gc(11 * 60_000);
      expect(await alive(plain.queue_id)).toBe(false);
      expect(await alive(mobile.queue_id)).toBe(true);
      // Still delivering after the default would have expired it.
      expectSuccess(await api.as('polonius').post(`/api/v1/users/me/muted_users/${id('hamlet')}`));
      expect((await events('polonius', mobile.queue_id)).map((e) => e.type)).toEqual(['muted_users']);
      expectSuccess(await api.as('polonius').delete(`/api/v1/users/me/muted_users/${id('hamlet')}`));
      gc(12 * 3600_000 + 1_000);
      expect(await alive(mobile.queue_id)).toBe(false);
    });
  });
});
