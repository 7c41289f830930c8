import { createHash } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { CreateUserCommand } from '@app/application';
import { messageDecider, messageStream, operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** PATCH /messages/{id} and GET /messages/{id}/history through the whole app (≈ zerver/tests/test_message_edit.py, test_message_move_topic.py). */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const MESSAGES = '/api/v1/messages';
const REALM = '/api/v1/realm';

describe('PATCH /messages/{message_id}', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, sendToChannel, events, refused, createChannel: createAs } = personaHelpers(() => api);
  const groupId = (name: string) => api.systemGroupId(name);
  const createChannel = (who: string, name: string, options: Record<string, unknown> = {}) => createAs(who, name, options, { lookUpAs: 'iago' });
  const send = (who: string, to: string, topic: string, content = 'hello') => sendToChannel(who, to, topic, content);
  const patch = (who: string, messageId: number, params: Record<string, unknown>) => api.as(who).patch(`${MESSAGES}/${messageId}`, params);
  const fetch = async (who: string, messageId: number) => expectSuccess(await api.as(who).get(`${MESSAGES}/${messageId}`));
  const topicOf = async (messageId: number, who = 'iago') => (await fetch(who, messageId)).message.subject as string;
  const realm = async (params: Record<string, unknown>) => expectSuccess(await api.as('desdemona').patch(REALM, params));

  let denmark: number;
  beforeEach(async () => {
    denmark = await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia'), id('iago'), id('polonius')] });
  });

  describe('content edits', () => {
    it('edits the content; the message shows it with last_edit_timestamp and edit_history; detached_uploads is []', async () => {
      const messageId = await send('hamlet', 'Denmark', 'greetings', 'hello');
      api.clock.advance(5000);
      expect(expectSuccess(await patch('hamlet', messageId, { content: 'hello **again**' }))).toEqual({ result: 'success', msg: '', detached_uploads: [] });
      const { message, raw_content } = await fetch('cordelia', messageId);
      expect(raw_content).toBe('hello **again**');
      expect(message.content).toBe('<p>hello <strong>again</strong></p>');
      expect(message.last_edit_timestamp).toBe(message.timestamp + 5);
      expect(message).not.toHaveProperty('last_moved_timestamp');
      expect(message.edit_history).toEqual([
        { user_id: id('hamlet'), timestamp: message.timestamp + 5, prev_content: 'hello', prev_rendered_content: '<p>hello</p>' },
      ]);
    });

    it('only the sender edits content', async () => {
      const messageId = await send('hamlet', 'Denmark', 'greetings');
      await api.markEvents();
      await refused(await patch('cordelia', messageId, { content: 'x' }), "You don't have permission to edit this message");
      await refused(await patch('iago', messageId, { content: 'x' }), "You don't have permission to edit this message");
    });

    it('allow_message_editing=false turns editing off', async () => {
      const messageId = await send('hamlet', 'Denmark', 'greetings');
      await realm({ allow_message_editing: false });
      await api.markEvents();
      await refused(await patch('hamlet', messageId, { content: 'x' }), 'Your organization has turned off message editing');
    });

    it('message_content_edit_limit_seconds (600) plus 20 s of grace', async () => {
      const messageId = await send('hamlet', 'Denmark', 'greetings');
      api.clock.advance(620_000);
      expectSuccess(await patch('hamlet', messageId, { content: 'in time' }));
      api.clock.advance(1000);
      await api.markEvents();
      await refused(await patch('hamlet', messageId, { content: 'too late' }), 'The time limit for editing this message has passed');
    });

    it('empty content becomes "(deleted)"', async () => {
      const messageId = await send('hamlet', 'Denmark', 'greetings');
      expectSuccess(await patch('hamlet', messageId, { content: '  ' }));
      expect((await fetch('hamlet', messageId)).raw_content).toBe('(deleted)');
    });

    it('prev_content_sha256: a match edits, a mismatch is EXPECTATION_MISMATCH with field_name', async () => {
      const messageId = await send('hamlet', 'Denmark', 'greetings', 'v1');
      const sha = (text: string) => createHash('sha256').update(text).digest('hex');
      expectSuccess(await patch('hamlet', messageId, { content: 'v2', prev_content_sha256: sha('v1') }));
      await api.markEvents();
      const body = await refused(await patch('hamlet', messageId, { content: 'v3', prev_content_sha256: sha('v1') }),
        "'prev_content_sha256' value does not match the expected value.", { code: 'EXPECTATION_MISMATCH' });
      expect(body.field_name).toBe('prev_content_sha256');
    });

    it('content with stream_id is an error; so are nothing to change and a propagate_mode without a move', async () => {
      const verona = await createChannel('hamlet', 'Verona');
      const messageId = await send('hamlet', 'Denmark', 'greetings');
      await api.markEvents();
      await refused(await patch('hamlet', messageId, { content: 'x', stream_id: verona }), 'Cannot change message content while changing channel');
      await refused(await patch('hamlet', messageId, {}), 'Nothing to change');
      await refused(await patch('hamlet', messageId, { topic: 'greetings' }), 'Nothing to change');
      await refused(await patch('hamlet', messageId, { content: 'x', propagate_mode: 'change_all' }), 'Invalid propagate_mode without topic edit');
      await refused(await patch('hamlet', messageId, { topic: 'x', propagate_mode: 'change_some' }), 'Invalid propagate_mode');
    });

    it('direct messages: content yes, topic and channel no', async () => {
      const dmId = expectSuccess(await api.as('hamlet').post(MESSAGES, { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'hi' })).id;
      expectSuccess(await patch('hamlet', dmId, { content: 'hi there' }));
      await api.markEvents();
      await refused(await patch('hamlet', dmId, { topic: 'x' }), 'Direct messages cannot have topics.');
      await refused(await patch('hamlet', dmId, { stream_id: denmark }), 'Direct messages cannot be moved to channels.');
    });

    it('mention flags follow the new content', async () => {
      const messageId = await send('hamlet', 'Denmark', 'greetings', 'hi @**Cordelia Lear**');
      const before = (await fetch('cordelia', messageId)).message.flags as string[];
      expect(before).toContain('mentioned');
      expectSuccess(await patch('hamlet', messageId, { content: 'no mention now' }));
      expect((await fetch('cordelia', messageId)).message.flags).toEqual(before.filter((f) => f !== 'mentioned'));
    });

    it('wildcard mentions in the new content need can_mention_many_users_group above 15 subscribers or topic participants', async () => {
      const bus = api.app.get(CommandBus);
      const extra: number[] = [];
      for (let i = 0; i < 16; i++) {
        const user = await bus.execute(new CreateUserCommand({ actor: operatorActor(api.realmId) }, { email: `extra${i}@acme.test`, fullName: `Extra ${i}`, role: 'member', password: null }));
        extra.push(user.userId);
        api.credentials.set(`extra${i}`, { userId: user.userId, email: `extra${i}@acme.test`, apiKey: user.apiKey });
      }
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: extra }));
      const messageId = await send('hamlet', 'Denmark', 'crowd');
      for (let i = 0; i < 16; i++) await send(`extra${i}`, 'Denmark', 'crowd', `me too ${i}`);
      await api.markEvents();
      await refused(await patch('hamlet', messageId, { content: 'hey @**all**' }), 'You do not have permission to use channel wildcard mentions in this channel.', {
        code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      });
      await refused(await patch('hamlet', messageId, { content: 'hey @**topic**' }), 'You do not have permission to use topic wildcard mentions in this topic.', {
        code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      });
      const iagos = await send('iago', 'Denmark', 'crowd');
      expectSuccess(await patch('iago', iagos, { content: 'hey @**all**' }));
      expect((await fetch('cordelia', iagos)).message.flags).toEqual(expect.arrayContaining(['stream_wildcard_mentioned', 'wildcard_mentioned']));
    });

    it('a message the user cannot access is Invalid message(s)', async () => {
      await createChannel('iago', 'secret', { invite_only: true });
      const messageId = await send('iago', 'secret', 'x');
      await api.markEvents();
      await refused(await patch('hamlet', messageId, { topic: 'y' }), 'Invalid message(s)');
      await refused(await patch('hamlet', 999_999, { content: 'y' }), 'Invalid message(s)');
    });
  });

  describe('topic moves and resolving', () => {
    it('change_one, change_later, change_all (topics match case-insensitively)', async () => {
      const [a, b, c] = [await send('hamlet', 'Denmark', 'plans'), await send('cordelia', 'Denmark', 'Plans'), await send('hamlet', 'Denmark', 'plans')];
      expectSuccess(await patch('hamlet', b, { topic: 'one' }));
      expect([await topicOf(a), await topicOf(b), await topicOf(c)]).toEqual(['plans', 'one', 'plans']);
      expectSuccess(await patch('cordelia', a, { topic: 'later', propagate_mode: 'change_later' }));
      expect([await topicOf(a), await topicOf(b), await topicOf(c)]).toEqual(['later', 'one', 'later']);
      expectSuccess(await patch('hamlet', b, { topic: 'later', propagate_mode: 'change_all' }));
      expectSuccess(await patch('hamlet', c, { topic: 'all', propagate_mode: 'change_all' }));
      expect([await topicOf(a), await topicOf(b), await topicOf(c)]).toEqual(['all', 'all', 'all']);
      const { message } = await fetch('hamlet', a);
      expect(message.last_moved_timestamp).toBeGreaterThan(0);
      expect(message).not.toHaveProperty('last_edit_timestamp');
    });

    it('a move is ONE event naming every moved message', async () => {
      const ids = [await send('hamlet', 'Denmark', 'bulk'), await send('hamlet', 'Denmark', 'bulk'), await send('hamlet', 'Denmark', 'bulk')];
      await api.markEvents();
      expectSuccess(await patch('hamlet', ids[1], { topic: 'moved', propagate_mode: 'change_all' }));
      const events = await api.newEvents();
      expect(events.filter((e) => e.type === 'MessagesMoved')).toHaveLength(1);
      expect(events.find((e) => e.type === 'MessagesMoved')!.data).toMatchObject({ messageIds: ids, origTopic: 'bulk', topic: 'moved', targetMessageId: ids[1] });
    });

    it('flags, unread counts and topic visibility follow the moved messages', async () => {
      const a = await send('hamlet', 'Denmark', 'old');
      await send('hamlet', 'Denmark', 'old');
      expectSuccess(await api.as('cordelia').post('/api/v1/messages/flags', { messages: JSON.stringify([a]), op: 'add', flag: 'starred' }));
      expectSuccess(await api.as('cordelia').post('/api/v1/user_topics', { stream_id: denmark, topic: 'old', visibility_policy: 3 }));
      expectSuccess(await patch('hamlet', a, { topic: 'new', propagate_mode: 'change_all' }));
      expect((await fetch('cordelia', a)).message.flags).toContain('starred');
      const { unread_msgs, user_topics } = expectSuccess(
        await api.as('cordelia').post('/api/v1/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags', 'user_topic']) }),
      );
      expect(unread_msgs.streams).toEqual([expect.objectContaining({ stream_id: denmark, topic: 'new', unread_message_ids: expect.arrayContaining([a]) })]);
      expect(user_topics).toEqual([expect.objectContaining({ stream_id: denmark, topic_name: 'new', visibility_policy: 3 })]);
    });

    it("a muted topic's move sends the deprecated muted_topics once, for the target (Zulip skips it when clearing the original)", async () => {
      const a = await send('hamlet', 'Denmark', 'old');
      expectSuccess(await api.as('cordelia').post('/api/v1/user_topics', { stream_id: denmark, topic: 'old', visibility_policy: 1 }));
      const legacy = expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['muted_topics'] })).queue_id as string;
      const modern = expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['user_topic'] })).queue_id as string;
      expectSuccess(await patch('hamlet', a, { topic: 'new', propagate_mode: 'change_all' }));
      const eventsOf = (queueId: string) => events('cordelia', queueId);
      expect(await eventsOf(legacy)).toEqual([{ id: 0, type: 'muted_topics', muted_topics: [['Denmark', 'new', expect.any(Number)]] }]);
      expect((await eventsOf(modern)).map((e) => [e.type, e.topic_name, e.visibility_policy])).toEqual([
        ['user_topic', 'old', 0],
        ['user_topic', 'new', 1],
      ]);
    });

    it('topic edits by others need can_move_messages_between_topics_group', async () => {
      const messageId = await send('hamlet', 'Denmark', 'greetings');
      expectSuccess(await patch('cordelia', messageId, { topic: 'by cordelia' }));
      await realm({ can_move_messages_between_topics_group: { new: groupId('role:nobody') } });
      await api.markEvents();
      await refused(await patch('cordelia', messageId, { topic: 'again' }), "You don't have permission to edit this message");
      expectSuccess(await patch('iago', messageId, { topic: 'by iago' }));
    });

    it('non-moderators move topics only within move_messages_within_stream_limit_seconds (+20 s)', async () => {
      await realm({ move_messages_within_stream_limit_seconds: 100 });
      const messageId = await send('hamlet', 'Denmark', 'greetings');
      api.clock.advance(121_000);
      await api.markEvents();
      await refused(await patch('cordelia', messageId, { topic: 'late' }), "The time limit for editing this message's topic has passed.");
      expectSuccess(await patch('shiva', messageId, { topic: 'by a moderator' }));
    });

    it('change_all with too old messages: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED with the three fields, then change_later from the first allowed', async () => {
      await realm({ move_messages_within_stream_limit_seconds: 100 });
      await send('hamlet', 'Denmark', 'history');
      api.clock.advance(1_000_000);
      const second = await send('hamlet', 'Denmark', 'history');
      const third = await send('cordelia', 'Denmark', 'history');
      await api.markEvents();
      const body = await refused(
        await patch('cordelia', third, { topic: 'moved', propagate_mode: 'change_all' }),
        'You only have permission to move the 2/3 most recent messages in this topic.',
        { code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED' },
      );
      expect(body).toMatchObject({ first_message_id_allowed_to_move: second, total_messages_allowed_to_move: 2, total_messages_in_topic: 3 });
      expectSuccess(await patch('cordelia', body.first_message_id_allowed_to_move, { topic: 'moved', propagate_mode: 'change_later' }));
      expect([await topicOf(second), await topicOf(third)]).toEqual(['moved', 'moved']);
    });

    it('resolves with "✔ " and change_all; unresolves; the empty topic cannot be resolved', async () => {
      const a = await send('hamlet', 'Denmark', 'bug');
      const b = await send('cordelia', 'Denmark', 'bug');
      expectSuccess(await patch('polonius', a, { topic: '✔ bug', propagate_mode: 'change_all' }));
      expect([await topicOf(a), await topicOf(b)]).toEqual(['✔ bug', '✔ bug']);
      expectSuccess(await patch('hamlet', b, { topic: 'bug', propagate_mode: 'change_all' }));
      expect([await topicOf(a), await topicOf(b)]).toEqual(['bug', 'bug']);
      const empty = await send('hamlet', 'Denmark', '');
      await api.markEvents();
      await refused(await patch('hamlet', empty, { topic: '✔ ', propagate_mode: 'change_all' }), 'General chat cannot be marked as resolved');
      await refused(await patch('hamlet', empty, { topic: '✔ general chat', propagate_mode: 'change_all' }), 'General chat cannot be marked as resolved');
    });

    it('resolving needs can_resolve_topics_group', async () => {
      const messageId = await send('hamlet', 'Denmark', 'bug');
      await realm({ can_resolve_topics_group: { new: groupId('role:moderators') } });
      await api.markEvents();
      await refused(await patch('hamlet', messageId, { topic: '✔ bug', propagate_mode: 'change_all' }), "You don't have permission to resolve topics in this channel.");
      expectSuccess(await patch('shiva', messageId, { topic: '✔ bug', propagate_mode: 'change_all' }));
    });
  });

  describe('notices by Notification Bot', () => {
    const latest = async (who: string, topic: string) => {
      const { messages } = expectSuccess(await api.as(who).get(MESSAGES, {
        anchor: 'newest', num_before: 5, num_after: 0, apply_markdown: false,
        narrow: JSON.stringify([{ operator: 'channel', operand: denmark }, { operator: 'topic', operand: topic }]),
      }));
      return messages as { content: string; sender_full_name: string; id: number }[];
    };

    it('a move posts "moved here" in the new topic (default) and, when asked, "moved to" in the old one', async () => {
      const a = await send('hamlet', 'Denmark', 'old');
      await send('hamlet', 'Denmark', 'old');
      expectSuccess(await patch('cordelia', a, { topic: 'new', propagate_mode: 'change_all', send_notification_to_old_thread: true }));
      const mention = `@_**Cordelia Lear|${id('cordelia')}**`;
      expect((await latest('hamlet', 'new')).at(-1)).toMatchObject({ sender_full_name: 'Notification Bot', content: `This topic was moved here from #**Denmark>old** by ${mention}.` });
      expect((await latest('hamlet', 'old')).at(-1)).toMatchObject({ sender_full_name: 'Notification Bot', content: `This topic was moved to #**Denmark>new** by ${mention}.` });
    });

    it('Notification Bot is a system bot: owned by nobody, in cross_realm_bots, not among the users nor anyone\'s bots', async () => {
      const a = await send('hamlet', 'Denmark', 'system bot');
      expectSuccess(await patch('cordelia', a, { topic: 'system bot moved', propagate_mode: 'change_all' }));
      const notice = (await latest('hamlet', 'system bot moved')).at(-1)!;
      expect(notice.sender_full_name).toBe('Notification Bot');
      const state = expectSuccess(await api.as('cordelia').post('/api/v1/register', { fetch_event_types: ['realm_user', 'realm_bot'] }));
      const [bot] = state.cross_realm_bots;
      expect(state.cross_realm_bots).toHaveLength(1);
      expect(bot).toMatchObject({ full_name: 'Notification Bot', is_bot: true, is_system_bot: true, bot_owner_id: null, email: expect.stringMatching(/^notification-bot@/) });
      expect(state.realm_users.map((u: { user_id: number }) => u.user_id)).not.toContain(bot.user_id);
      expect(state.realm_bots).toEqual([]);
      const asAdmin = expectSuccess(await api.as('iago').post('/api/v1/register', { fetch_event_types: ['realm_bot'] }));
      expect(asAdmin.realm_bots.map((b: { user_id: number }) => b.user_id)).not.toContain(bot.user_id);
      expect(expectSuccess(await api.as('cordelia').get('/api/v1/bots')).bots).toEqual([]);
      const { members } = expectSuccess(await api.as('cordelia').get('/api/v1/users'));
      expect(members.map((u: { user_id: number }) => u.user_id)).not.toContain(bot.user_id);
      // As a message's sender it can be looked up (access_user_by_id_including_cross_realm).
      expect(expectSuccess(await api.as('cordelia').get(`/api/v1/users/${bot.user_id}`)).user).toMatchObject({ full_name: 'Notification Bot', is_bot: true });
      // Not a user an administrator can edit.
      expectError(await api.as('iago').patch(`/api/v1/users/${bot.user_id}`, { full_name: 'Renamed Bot' }), 'No such user');
    });

    it('a partial move says how many; send_notification_to_new_thread=false posts nothing there', async () => {
      const a = await send('hamlet', 'Denmark', 'part');
      const b = await send('hamlet', 'Denmark', 'part');
      const c = await send('hamlet', 'Denmark', 'part');
      expectSuccess(await patch('hamlet', b, { topic: 'rest', propagate_mode: 'change_later' }));
      expect((await latest('hamlet', 'rest')).at(-1)!.content).toBe(`2 messages were moved here from #**Denmark>part** by @_**King Hamlet|${id('hamlet')}**.`);
      expectSuccess(await patch('hamlet', a, { topic: 'quiet', send_notification_to_new_thread: false }));
      expect((await latest('hamlet', 'quiet')).map((m) => m.id)).toEqual([a]);
      expect(c).toBeGreaterThan(b);
    });

    it('a pure resolve posts "has marked this topic as resolved." and no moved-here notice', async () => {
      const a = await send('hamlet', 'Denmark', 'bug');
      expectSuccess(await patch('hamlet', a, { topic: '✔ bug', propagate_mode: 'change_all' }));
      const messages = await latest('hamlet', '✔ bug');
      expect(messages.map((m) => m.content)).toEqual(['hello', `@_**King Hamlet|${id('hamlet')}** has marked this topic as resolved.`]);
      // Read for the one who resolved it (mark_as_read_for_acting_user), unread for the others.
      const notice = messages[1].id;
      expect((await fetch('hamlet', notice)).message.flags).toContain('read');
      expect((await fetch('cordelia', notice)).message.flags).not.toContain('read');
      expectSuccess(await patch('hamlet', a, { topic: 'bug', propagate_mode: 'change_all' }));
      expect((await latest('hamlet', 'bug')).at(-1)!.content).toBe(`@_**King Hamlet|${id('hamlet')}** has marked this topic as unresolved.`);
    });
  });

  describe('moves between channels', () => {
    let verona: number;
    beforeEach(async () => {
      verona = await createChannel('hamlet', 'Verona', { principals: [id('hamlet'), id('iago')], invite_only: true });
    });

    it('moves the topic; subscribers of the old channel only lose the messages', async () => {
      const a = await send('hamlet', 'Denmark', 'trip');
      const b = await send('cordelia', 'Denmark', 'trip');
      expectSuccess(await patch('hamlet', a, { stream_id: verona, propagate_mode: 'change_all' }));
      const { message } = await fetch('hamlet', b);
      expect(message).toMatchObject({ stream_id: verona, display_recipient: 'Verona', subject: 'trip' });
      expectError(await api.as('cordelia').get(`${MESSAGES}/${b}`), 'Invalid message(s)');
    });

    it('needs can_move_messages_between_channels_group (members; not guests) and the right to post in the target', async () => {
      const messageId = await send('hamlet', 'Denmark', 'trip');
      const open = await createChannel('iago', 'Elsinore', { principals: [id('iago'), id('polonius'), id('hamlet')] });
      await api.markEvents();
      await refused(await patch('polonius', messageId, { stream_id: open }), "You don't have permission to move this message");
      await refused(await patch('cordelia', messageId, { stream_id: verona }), 'Invalid channel ID');
      await refused(await patch('hamlet', messageId, { stream_id: 9999 }), 'Invalid channel ID');
    });

    it('non-moderators only within move_messages_between_streams_limit_seconds (+20 s)', async () => {
      await realm({ move_messages_between_streams_limit_seconds: 100 });
      const messageId = await send('hamlet', 'Denmark', 'trip');
      api.clock.advance(121_000);
      await api.markEvents();
      await refused(await patch('hamlet', messageId, { stream_id: verona }), "The time limit for editing this message's channel has passed");
      expectSuccess(await patch('iago', messageId, { stream_id: verona }));
    });

    it('in a private channel with protected history only the messages the mover can access move (no error)', async () => {
      const vault = await createChannel('hamlet', 'vault', { invite_only: true, history_public_to_subscribers: false });
      const hidden = await send('hamlet', 'vault', 'plans', 'before cordelia');
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'vault' }], principals: [id('cordelia')] }));
      const seen = await send('hamlet', 'vault', 'plans', 'after cordelia');
      expectSuccess(await patch('cordelia', seen, { topic: 'moved', propagate_mode: 'change_all' }));
      expect([await topicOf(hidden, 'hamlet'), await topicOf(seen, 'hamlet')]).toEqual(['plans', 'moved']);
      expect(vault).toBeGreaterThan(0);
    });
  });

  describe('GET /messages/{id}/history', () => {
    it('lists every version from the events: sent, content edits, moves (also moves made through another message)', async () => {
      const a = await send('hamlet', 'Denmark', 'plans', 'v1');
      const b = await send('hamlet', 'Denmark', 'plans', 'other');
      api.clock.advance(10_000);
      expectSuccess(await patch('hamlet', a, { content: 'v2' }));
      api.clock.advance(10_000);
      expectSuccess(await patch('cordelia', b, { topic: 'moved', propagate_mode: 'change_all' }));
      const { message_history } = expectSuccess(await api.as('cordelia').get(`${MESSAGES}/${a}/history`));
      const t0 = (await fetch('hamlet', a)).message.timestamp;
      expect(message_history).toEqual([
        { user_id: id('hamlet'), timestamp: t0, topic: 'plans', content: 'v1', rendered_content: '<p>v1</p>' },
        { user_id: id('hamlet'), timestamp: t0 + 10, topic: 'plans', content: 'v2', rendered_content: '<p>v2</p>', prev_content: 'v1', prev_rendered_content: '<p>v1</p>' },
        { user_id: id('cordelia'), timestamp: t0 + 20, topic: 'moved', content: 'v2', rendered_content: '<p>v2</p>', prev_topic: 'plans' },
      ]);
    });

    it('Invalid message(s) for a message the user cannot see', async () => {
      await createChannel('iago', 'secret', { invite_only: true });
      const messageId = await send('iago', 'secret', 'x');
      expectError(await api.as('hamlet').get(`${MESSAGES}/${messageId}/history`), 'Invalid message(s)');
    });
  });

  describe('concurrency', () => {
    it('50 concurrent edits of one message: every one applied in some order (writers take turns); the final state equals a replay of the stream', async () => {
      const messageId = await send('hamlet', 'Denmark', 'race', 'v0');
      const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => patch('hamlet', messageId, { content: `edit ${i}` })));
      for (const response of responses) expect(response.body).toEqual({ result: 'success', msg: '', detached_uploads: [] });
      const applied = responses.filter((r) => r.status === 200).length;
      expect(applied).toBe(50);
      const { events } = await api.eventStore.readStream(messageStream(messageId));
      expect(events.filter((e) => e.type === 'MessageContentEdited')).toHaveLength(applied);
      const replayed = events.reduce((s, e) => messageDecider.evolve(s, { type: e.type, data: e.data } as never), messageDecider.initialState());
      const { raw_content, message } = await fetch('hamlet', messageId);
      expect(raw_content).toBe(replayed.content);
      expect(message.content).toBe(replayed.renderedContent);
      expect(message.edit_history).toHaveLength(applied);
      // Each edit's prev_content is the previous edit's content: no lost update.
      const edits = events.filter((e) => e.type === 'MessageContentEdited').map((e) => e.data as { prevContent: string; content: string });
      edits.forEach((e, i) => expect(e.prevContent).toBe(i === 0 ? 'v0' : edits[i - 1].content));
    });
  });
});
