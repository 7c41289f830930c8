import { SCHEDULER } from '@app/application';
import type { TimerScheduler } from '@app/infrastructure';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * Widgets (`/poll`, `/todo`) and POST /submessage: the widget submessage a message is sent with,
 * `submessages` in message objects, `submessage` events (≈ zerver/tests/test_submessage.py,
 * zerver/tests/test_widgets.py).
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const SUBMESSAGE = '/api/v1/submessage';

describe('widgets and submessages', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, queue: queueOf, events: eventsOf } = personaHelpers(() => api);
  const send = async (from: string, content: string, options: { channel?: string; members?: string[]; private?: boolean } = {}) => {
    const channel = options.channel ?? 'Denmark';
    const members = options.members ?? ['hamlet', 'cordelia'];
    expectSuccess(await api.as(members[0]).post(SUBSCRIPTIONS, { subscriptions: [{ name: channel }], principals: members.map(id), invite_only: options.private === true }));
    return expectSuccess(await api.as(from).post('/api/v1/messages', { type: 'stream', to: channel, topic: 'widgets', content })).id as number;
  };
  const submessagesOn = async (who: string, messageId: number) => expectSuccess(await api.as(who).get(`/api/v1/messages/${messageId}`)).message.submessages;
  const submit = (who: string, messageId: number, content: unknown, msgType = 'widget') =>
    api.as(who).post(SUBMESSAGE, { message_id: messageId, msg_type: msgType, content: typeof content === 'string' ? content : JSON.stringify(content) });
  /** A refused request: Zulip's envelope, and nothing appended to the log. */
  const refused = async (response: Parameters<typeof expectError>[0], msg: string) => {
    expectError(response, msg, { code: 'BAD_REQUEST', status: 400 });
    expect((await api.newEvents()).map((e) => e.type)).toEqual([]);
  };

  describe('sending /poll and /todo', () => {
    it('makes a poll: the question, the options without list markers, as a widget submessage by the sender', async () => {
      const messageId = await send('hamlet', '/poll What to eat?\n- Pizza\n* Sushi\n\n  Tacos  ');
      const [widget] = await submessagesOn('cordelia', messageId);
      expect(widget).toEqual({ id: expect.any(Number), message_id: messageId, sender_id: id('hamlet'), msg_type: 'widget', content: expect.any(String) });
      // Stored as Python's json.dumps writes it.
      expect(widget.content).toBe('{"widget_type": "poll", "extra_data": {"question": "What to eat?", "options": ["Pizza", "Sushi", "Tacos"]}}');
    });

    it('makes a poll without a question from a bare /poll, and a to-do list with task descriptions', async () => {
      const bare = await send('hamlet', '/poll');
      expect(JSON.parse((await submessagesOn('hamlet', bare))[0].content)).toEqual({ widget_type: 'poll', extra_data: { question: '', options: [] } });
      const todo = await send('hamlet', '/todo Chores\nDishes: before dinner\n- Laundry');
      expect(JSON.parse((await submessagesOn('hamlet', todo))[0].content)).toEqual({
        widget_type: 'todo',
        extra_data: { task_list_title: 'Chores', tasks: [{ task: 'Dishes', desc: 'before dinner' }, { task: 'Laundry', desc: '' }] },
      });
    });

    it('makes no widget of other content: /pollen, text before /poll, /me', async () => {
      for (const content of ['/pollen is everywhere', 'a /poll here', '/me waves']) expect(await submessagesOn('hamlet', await send('hamlet', content))).toEqual([]);
    });

    it('takes a zform widget given outright in widget_content, and refuses a bad one', async () => {
      const zform = { widget_type: 'zform', extra_data: { type: 'choices', heading: 'Options:', choices: [{ short_name: 'A', long_name: 'Alpha', reply: 'alpha' }] } };
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [id('hamlet'), id('cordelia')] }));
      const sendWith = (widget: string, content = 'does-not-matter') => api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'Denmark', topic: 'widgets', content, widget_content: widget });
      // It replaces what the content says.
      const messageId = expectSuccess(await sendWith(JSON.stringify(zform), '/poll ignored')).id as number;
      const [widget] = await submessagesOn('cordelia', messageId);
      expect({ sender: widget.sender_id, type: widget.msg_type, content: JSON.parse(widget.content) }).toEqual({ sender: id('hamlet'), type: 'widget', content: zform });
      await api.markEvents();
      await refused(await sendWith('{{{{{{'), 'Widgets: API programmer sent invalid JSON content');
      await refused(await sendWith(JSON.stringify({ color: 'red' })), 'Widgets: widget_type is not in widget_content');
      await refused(await sendWith(JSON.stringify({ widget_type: 'poll', extra_data: { question: 'q', options: [] } })), 'Widgets: unknown widget type: poll');
    });

    it('makes the widget of a scheduled /poll when it is delivered', async () => {
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [id('hamlet'), id('cordelia')] }));
      const denmark = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'Denmark' })).stream_id;
      const at = Math.floor(api.clock.now().getTime() / 1000) + 300;
      expectSuccess(await api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'channel', to: denmark, topic: 'later', content: '/poll Later?\nYes', scheduled_delivery_timestamp: at }));
      await api.settled();
      api.clock.advance(301_000);
      await api.background.get<TimerScheduler>(SCHEDULER).runDue();
      const [delivered] = expectSuccess(await api.as('cordelia').get('/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).messages;
      expect(delivered.submessages.map((s: { sender_id: number; content: string }) => [s.sender_id, JSON.parse(s.content)])).toEqual([
        [id('hamlet'), { widget_type: 'poll', extra_data: { question: 'Later?', options: ['Yes'] } }],
      ]);
    });

    it('carries the widget submessage in the message event, and records it with the message', async () => {
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [id('hamlet'), id('cordelia')] }));
      const { queue_id } = expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['message', 'submessage'] }));
      await api.markEvents();
      const messageId = await send('hamlet', '/poll Lunch?\nYes\nNo');
      const logged = await api.newEvents();
      expect(logged.filter((e) => e.type === 'MessageSent')[0].data).toMatchObject({ messageId, widget: { senderId: id('hamlet'), msgType: 'widget' } });
      expect(logged.map((e) => e.type)).not.toContain('SubmessageAdded');
      const { events } = expectSuccess(await api.as('cordelia').get('/api/v1/events', { queue_id, last_event_id: -1, dont_block: true }));
      expect(events.map((e: { type: string }) => e.type)).toEqual(['message']);
      expect(events[0].message.submessages).toEqual(await submessagesOn('cordelia', messageId));
    });
  });

  describe('POST /submessage', () => {
    it('adds a vote by any reader after the widget, listed by id in GET /messages and recorded on the message\'s submessages stream', async () => {
      const messageId = await send('hamlet', '/poll Lunch?\nYes\nNo');
      await api.markEvents();
      const vote = { type: 'vote', key: 'canned,0', vote: 1 };
      expect(expectSuccess(await submit('cordelia', messageId, vote))).toEqual({ result: 'success', msg: '' });
      expectSuccess(await submit('hamlet', messageId, { type: 'new_option', idx: 1, option: 'Maybe' }));
      const events = await api.newEvents();
      expect(events.map((e) => [e.streamId, e.type])).toEqual([
        [`message_submessages-${messageId}`, 'SubmessageAdded'],
        [`message_submessages-${messageId}`, 'SubmessageAdded'],
      ]);
      const submessages = await submessagesOn('hamlet', messageId);
      expect(submessages.map((s: { sender_id: number; content: string }) => [s.sender_id, s.content])).toEqual([
        [id('hamlet'), expect.stringContaining('"widget_type": "poll"')],
        [id('cordelia'), JSON.stringify(vote)],
        [id('hamlet'), JSON.stringify({ type: 'new_option', idx: 1, option: 'Maybe' })],
      ]);
      const ids = submessages.map((s: { id: number }) => s.id);
      expect([...ids].sort((a: number, b: number) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(3);
      // The messages list carries them too.
      const listed = expectSuccess(await api.as('cordelia').get('/api/v1/messages', { anchor: messageId, num_before: 0, num_after: 0 })).messages;
      expect(listed[0].submessages).toEqual(submessages);
    });

    it('refuses a first submessage by someone other than the message sender (verify_submessage_sender)', async () => {
      const messageId = await send('hamlet', 'plain text');
      await api.markEvents();
      await refused(await submit('cordelia', messageId, { whatever: 1 }, 'whatever'), 'You cannot attach a submessage to this message.');
      // The sender may attach any submessage to their own message; then others may follow.
      expectSuccess(await submit('hamlet', messageId, { widget_type: 'custom' }));
      expectSuccess(await submit('cordelia', messageId, { anything: true }, 'other'));
      expect((await submessagesOn('hamlet', messageId)).map((s: { msg_type: string }) => s.msg_type)).toEqual(['widget', 'other']);
    });

    it('refuses content that is not JSON', async () => {
      const messageId = await send('hamlet', '/poll Lunch?');
      await api.markEvents();
      await refused(await submit('cordelia', messageId, 'not json'), 'Invalid json for submessage');
    });

    it('checks poll data as validate_poll_data does', async () => {
      const messageId = await send('hamlet', '/poll Lunch?\nYes');
      await api.markEvents();
      await refused(await submit('cordelia', messageId, [1]), 'poll data is not a dict');
      await refused(await submit('cordelia', messageId, { key: 'x' }), 'type key is missing from poll data');
      await refused(await submit('cordelia', messageId, { type: 'bogus' }), 'Unknown type for poll data: bogus');
      await refused(await submit('cordelia', messageId, { type: 'vote', key: 'canned,0', vote: 2 }), 'Invalid poll data["vote"]');
      await refused(await submit('cordelia', messageId, { type: 'vote', key: 0, vote: 1 }), 'poll data["key"] is not a string');
      await refused(await submit('cordelia', messageId, { type: 'vote', key: 'canned,0', vote: 1, extra: 1 }), 'Unexpected arguments: extra');
      await refused(await submit('cordelia', messageId, { type: 'new_option', option: 'x', idx: 1001 }), 'poll data["idx"] is too large');
      await refused(await submit('cordelia', messageId, { type: 'question', question: 'Dinner?' }), "You can't edit a question unless you are the author.");
      expectSuccess(await submit('hamlet', messageId, { type: 'question', question: 'Dinner?' }));
      expectSuccess(await submit('cordelia', messageId, { type: 'vote', key: 'canned,0', vote: -1 }));
    });

    it('checks to-do data as validate_todo_data does', async () => {
      const messageId = await send('hamlet', '/todo Chores');
      await api.markEvents();
      await refused(await submit('cordelia', messageId, { type: 'new_task', key: 1, task: 'Dishes', desc: '' }), 'completed key is missing from todo data');
      await refused(await submit('cordelia', messageId, { type: 'new_task', key: -1, task: 'Dishes', desc: '', completed: false }), 'todo data["key"] is too small');
      await refused(await submit('cordelia', messageId, { type: 'new_task_list_title', title: 'Mine' }), "You can't edit the task list title unless you are the author.");
      await refused(await submit('cordelia', messageId, { type: 'poke' }), 'Unknown type for todo data: poke');
      expectSuccess(await submit('cordelia', messageId, { type: 'new_task', key: 1, task: 'Dishes', desc: 'soon', completed: false }));
      expectSuccess(await submit('hamlet', messageId, { type: 'strike', key: '1,' + id('cordelia') }));
      expectSuccess(await submit('hamlet', messageId, { type: 'new_task_list_title', title: 'House' }));
      expect(await submessagesOn('cordelia', messageId)).toHaveLength(4);
    });

    it('answers "Invalid message(s)" for a message the user cannot read, a deleted one, one in an archived channel, or none', async () => {
      const secret = await send('hamlet', '/poll Secret?', { channel: 'Secret', private: true });
      const open = await send('hamlet', '/poll Open?');
      const doomed = await send('hamlet', '/poll Doomed?');
      expectSuccess(await api.as('iago').delete(`/api/v1/messages/${doomed}`));
      const dm = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: [id('cordelia')], content: '/poll Us?' })).id as number;
      await api.markEvents();
      const vote = { type: 'vote', key: 'canned,0', vote: 1 };
      for (const who of ['iago', 'desdemona', 'shiva']) await refused(await submit(who, secret, vote), 'Invalid message(s)');
      await refused(await submit('iago', dm, vote), 'Invalid message(s)');
      await refused(await submit('polonius', open, vote), 'Invalid message(s)');
      await refused(await submit('hamlet', doomed, vote), 'Invalid message(s)');
      await refused(await submit('hamlet', 999_999, vote), 'Invalid message(s)');
      expectSuccess(await submit('cordelia', dm, vote));
      // Readers of a public channel's history may vote without having received the message.
      expectSuccess(await submit('iago', open, vote));
      const streamId = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'Denmark' })).stream_id;
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${streamId}`));
      await api.markEvents();
      await refused(await submit('hamlet', open, vote), 'Invalid message(s)');
    });

    it('wants message_id, msg_type and content', async () => {
      const messageId = await send('hamlet', '/poll Lunch?');
      await api.markEvents();
      expectError(await api.as('hamlet').post(SUBMESSAGE, { msg_type: 'widget', content: '{}' }), "Missing 'message_id' argument", { code: 'REQUEST_VARIABLE_MISSING', status: 400 });
      expectError(await api.as('hamlet').post(SUBMESSAGE, { message_id: messageId, content: '{}' }), "Missing 'msg_type' argument", { code: 'REQUEST_VARIABLE_MISSING', status: 400 });
      expectError(await api.as('hamlet').post(SUBMESSAGE, { message_id: messageId, msg_type: 'widget' }), "Missing 'content' argument", { code: 'REQUEST_VARIABLE_MISSING', status: 400 });
      expectError(await api.as('hamlet').post(SUBMESSAGE, { message_id: 'x', msg_type: 'widget', content: '{}' }), 'message_id is not valid JSON', { status: 400 });
      expect((await api.newEvents()).map((e) => e.type)).toEqual([]);
    });
  });

  describe('submessage events', () => {
    const register = (who: string) => queueOf(who, ['submessage']);

    it('go to the users who received the message (its rows), not to other readers', async () => {
      const messageId = await send('hamlet', '/poll Lunch?\nYes');
      const queues = Object.fromEntries(await Promise.all(['hamlet', 'cordelia', 'iago'].map(async (who) => [who, await register(who)] as const)));
      const content = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
      expectSuccess(await submit('cordelia', messageId, content));
      const [, vote] = await submessagesOn('hamlet', messageId);
      const expected = { type: 'submessage', msg_type: 'widget', message_id: messageId, submessage_id: vote.id, sender_id: id('cordelia'), content, id: expect.any(Number) };
      for (const who of ['hamlet', 'cordelia']) expect(await eventsOf(who, queues[who])).toEqual([expected]);
      expect(await eventsOf('iago', queues.iago)).toEqual([]);
    });
  });

  describe('automatic topic follow / unmute on participation (do_add_submessage)', () => {
    const setting = async (who: string, settings: Record<string, number>) => expectSuccess(await api.as(who).patch('/api/v1/settings', settings));
    const streamId = (name: string) => api.channelId(name);
    const policies = async (who: string) => (await api.userTopics(who)).map((t) => [t.topic_name, t.visibility_policy]);
    const register = (who: string) => queueOf(who, ['user_topic', 'submessage']);
    const vote = { type: 'vote', key: 'canned,0', vote: 1 };

    it('follows the topic for a poll voter whose automatically_follow_topics_policy is "on participation" (1), with the user_topic event', async () => {
      const messageId = await send('hamlet', '/poll Lunch?\nYes\nNo', { members: ['hamlet', 'cordelia', 'iago'] });
      const stream_id = await streamId('Denmark');
      await setting('cordelia', { automatically_follow_topics_policy: 1 });
      const queue = await register('cordelia');
      await api.markEvents();
      expectSuccess(await submit('cordelia', messageId, vote));
      // Iago, under Zulip's defaults, adds an option: no change for him.
      expectSuccess(await submit('iago', messageId, { type: 'new_option', idx: 7, option: 'Maybe' }));
      expect((await api.newEvents()).map((e) => [e.streamId, e.type])).toEqual([
        [`message_submessages-${messageId}`, 'UserTopicVisibilityPolicyChanged'],
        [`message_submessages-${messageId}`, 'SubmessageAdded'],
        [`message_submessages-${messageId}`, 'SubmessageAdded'],
      ]);
      expect(await policies('cordelia')).toEqual([['widgets', 3]]);
      expect(await policies('iago')).toEqual([]);
      const events = await eventsOf('cordelia', queue);
      expect(events.map((e) => e.type)).toEqual(['user_topic', 'submessage', 'submessage']);
      expect(events[0]).toEqual({ id: 0, type: 'user_topic', stream_id, topic_name: 'widgets', last_updated: expect.any(Number), visibility_policy: 3 });
      // Voting again in a followed topic changes nothing more.
      await api.markEvents();
      expectSuccess(await submit('cordelia', messageId, { ...vote, vote: -1 }));
      expect((await api.newEvents()).map((e) => e.type)).toEqual(['SubmessageAdded']);
    });

    it('unmutes the topic of a muted channel for a to-do editor under the unmute policy, and does nothing under "never" (4)', async () => {
      const messageId = await send('hamlet', '/todo Chores', { members: ['hamlet', 'cordelia', 'iago'] });
      for (const who of ['cordelia', 'iago']) {
        expectSuccess(
          await api.as(who).post('/api/v1/users/me/subscriptions/properties', { subscription_data: JSON.stringify([{ stream_id: await streamId('Denmark'), property: 'is_muted', value: true }]) }),
        );
      }
      await setting('cordelia', { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 1 });
      await setting('iago', { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 4 });
      expectSuccess(await submit('cordelia', messageId, { type: 'new_task', key: 1, task: 'Dishes', desc: '', completed: false }));
      expectSuccess(await submit('iago', messageId, { type: 'strike', key: `1,${id('cordelia')}` }));
      expect(await policies('cordelia')).toEqual([['widgets', 2]]);
      expect(await policies('iago')).toEqual([]);
    });

    it('changes nothing for a refused submessage, nor on a direct message', async () => {
      const messageId = await send('hamlet', '/poll Lunch?\nYes');
      await setting('cordelia', { automatically_follow_topics_policy: 1 });
      await api.markEvents();
      expectError(await submit('cordelia', messageId, { type: 'question', question: 'Mine' }), "You can't edit a question unless you are the author.");
      expect(await api.newEvents()).toEqual([]);
      const dm = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: '/poll Tea?\nYes' })).id as number;
      await api.markEvents();
      expectSuccess(await submit('cordelia', dm, vote));
      expect((await api.newEvents()).map((e) => e.type)).toEqual(['SubmessageAdded']);
      expect(await policies('cordelia')).toEqual([]);
    });
  });

  it('POST /submessage is described in the OpenAPI document', async () => {
    const document = (await api.http.get('/api/v1/openapi.json')).body;
    expect(document.paths['/api/v1/submessage'].post.requestBody.content['application/x-www-form-urlencoded'].schema).toMatchObject({
      properties: { message_id: expect.any(Object), msg_type: expect.any(Object), content: expect.any(Object) },
      required: ['message_id', 'msg_type', 'content'],
    });
  });
});
