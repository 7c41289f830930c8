import { TINY_PNG, personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * POST and DELETE /messages/{message_id}/reactions, `reactions` in message objects, `reaction`
 * events (≈ zerver/tests/test_reactions.py).
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const reactionsOf = (messageId: number) => `/api/v1/messages/${messageId}/reactions`;

describe('reactions', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, queue: queueOf, events: eventsOf } = personaHelpers(() => api);
  /** A channel of `members` (created by the first), with a message from `sender`. */
  const channelMessage = async (channel: string, members: string[], options: { sender?: string; private?: boolean } = {}) => {
    expectSuccess(await api.as(members[0]).post(SUBSCRIPTIONS, { subscriptions: [{ name: channel }], principals: members.map(id), invite_only: options.private === true }));
    const sent = expectSuccess(await api.as(options.sender ?? members[0]).post('/api/v1/messages', { type: 'stream', to: channel, topic: 'reactions', content: 'React to me' }));
    return sent.id as number;
  };
  const directMessage = async (from: string, to: string[]) =>
    expectSuccess(await api.as(from).post('/api/v1/messages', { type: 'direct', to: to.map(id), content: 'Just us' })).id as number;
  const reactionsOn = async (who: string, messageId: number) => expectSuccess(await api.as(who).get(`/api/v1/messages/${messageId}`)).message.reactions;
  const octopus = (userId: number) => ({ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: userId });
  /** A refused request: Zulip's envelope, and nothing appended to the log. */
  const refused = async (response: Parameters<typeof expectError>[0], msg: string, code = 'BAD_REQUEST') => {
    expectError(response, msg, { code, status: 400 });
    expect((await api.newEvents()).map((e) => e.type)).toEqual([]);
  };
  const uploadEmoji = async (name: string) => {
    const { email, apiKey } = api.user('iago');
    expectSuccess(await api.http.post(`/api/v1/realm/emoji/${name}`).auth(email, apiKey).attach('f1', TINY_PNG, `${name}.png`));
    const all = expectSuccess(await api.as('iago').get('/api/v1/realm/emoji')).emoji as Record<string, { name: string }>;
    return Object.entries(all).find(([, e]) => e.name === name)![0];
  };

  describe('POST /messages/{message_id}/reactions', () => {
    it('adds a Unicode emoji named alone, shown in the message object and recorded on the message\'s reactions stream', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      await api.markEvents();
      expect(expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'octopus' }))).toEqual({ result: 'success', msg: '' });
      expect(await reactionsOn('hamlet', messageId)).toEqual([octopus(id('cordelia'))]);
      const events = await api.newEvents();
      expect(events.map((e) => [e.streamId, e.type])).toEqual([[`message_reactions-${messageId}`, 'ReactionAdded']]);
      expect(events[0].data).toMatchObject({ messageId, userId: id('cordelia'), emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji' });
    });

    it('takes an explicit code and type, Zulip\'s extra emoji under either spelling, and custom emoji', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia', 'iago']);
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }));
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' }));
      const parrot = await uploadEmoji('parrot');
      expectSuccess(await api.as('iago').post(reactionsOf(messageId), { emoji_name: 'parrot' }));
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'parrot', emoji_code: parrot, reaction_type: 'realm_emoji' }));
      expect(await reactionsOn('hamlet', messageId)).toEqual([
        octopus(id('hamlet')),
        // Stored as the spec's svc_extra_emoji, sent as Zulip's name (ZULIP_ALIASES is on by default).
        { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: id('hamlet') },
        { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: id('cordelia') },
        { emoji_name: 'parrot', emoji_code: parrot, reaction_type: 'realm_emoji', user_id: id('iago') },
        { emoji_name: 'parrot', emoji_code: parrot, reaction_type: 'realm_emoji', user_id: id('hamlet') },
      ]);
    });

    it('counts a reaction with the same code as a vote under the first name (thumbs_up after +1)', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: '+1' }));
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
      expect((await reactionsOn('hamlet', messageId)).map((r: { emoji_name: string }) => r.emoji_name)).toEqual(['+1', '+1']);
    });

    it('refuses a second reaction with the same emoji: "Reaction already exists."', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      await api.markEvents();
      await refused(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'octopus' }), 'Reaction already exists.', 'REACTION_ALREADY_EXISTS');
      await refused(
        await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }),
        'Reaction already exists.',
        'REACTION_ALREADY_EXISTS',
      );
      expect(await reactionsOn('hamlet', messageId)).toEqual([octopus(id('hamlet'))]);
    });

    it('refuses invalid emoji with Zulip\'s messages, changing nothing', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia', 'iago']);
      const retired = await uploadEmoji('retired');
      expectSuccess(await api.as('iago').delete('/api/v1/realm/emoji/retired'));
      await api.markEvents();
      const cases: [Record<string, unknown>, string, string?][] = [
        [{}, "Missing 'emoji_name' argument", 'REQUEST_VARIABLE_MISSING'],
        [{ emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
        [{ emoji_name: 'retired' }, "Emoji 'retired' does not exist"],
        [{ emoji_name: 'octopus', emoji_code: 'ffff', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
        [{ emoji_name: 'car', emoji_code: '1f419', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
        [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'emoji' }, 'Invalid emoji type.'],
        [{ emoji_name: 'octopus', reaction_type: 'emoji' }, 'Invalid emoji type.'],
        [{ emoji_name: 'car', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' }, 'Invalid emoji name.'],
        [{ emoji_name: 'zulip', emoji_code: 'zulip2', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji code.'],
        [{ emoji_name: 'parrot', emoji_code: '9999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
        [{ emoji_name: 'parrot', emoji_code: retired, reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
        [{ emoji_name: 'retired', emoji_code: retired, reaction_type: 'realm_emoji' }, 'This custom emoji has been deactivated.'],
      ];
      for (const [params, msg, code] of cases) await refused(await api.as('hamlet').post(reactionsOf(messageId), params), msg, code);
      expect(await reactionsOn('hamlet', messageId)).toEqual([]);
    });

    it('lets a vote for a custom emoji deactivated since stand, unchecked', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia', 'iago']);
      const retired = await uploadEmoji('retired');
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'retired' }));
      expectSuccess(await api.as('iago').delete('/api/v1/realm/emoji/retired'));
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'retired', emoji_code: retired, reaction_type: 'realm_emoji' }));
      expect((await reactionsOn('hamlet', messageId)).map((r: { user_id: number }) => r.user_id)).toEqual([id('hamlet'), id('cordelia')]);
    });

    it('answers "Invalid message(s)" for a message the user cannot read, and for one that is not there', async () => {
      const publicMessage = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      const privateMessage = await channelMessage('Secret', ['hamlet', 'cordelia'], { private: true });
      const dm = await directMessage('hamlet', ['cordelia']);
      await api.markEvents();
      // A guest outside a public channel; a member, an administrator and the owner outside a private one; a third party to a DM.
      await refused(await api.as('polonius').post(reactionsOf(publicMessage), { emoji_name: 'octopus' }), 'Invalid message(s)');
      for (const who of ['shiva', 'iago', 'desdemona']) await refused(await api.as(who).post(reactionsOf(privateMessage), { emoji_name: 'octopus' }), 'Invalid message(s)');
      await refused(await api.as('iago').post(reactionsOf(dm), { emoji_name: 'octopus' }), 'Invalid message(s)');
      await refused(await api.as('hamlet').post(reactionsOf(999_999), { emoji_name: 'octopus' }), 'Invalid message(s)');
      await refused(await api.as('hamlet').delete(reactionsOf(999_999), { emoji_name: 'octopus' }), 'Invalid message(s)');
      // The guest can react once subscribed; DM participants can.
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [id('polonius')] }));
      expectSuccess(await api.as('polonius').post(reactionsOf(publicMessage), { emoji_name: 'octopus' }));
      expectSuccess(await api.as('cordelia').post(reactionsOf(dm), { emoji_name: 'octopus' }));
      expectSuccess(await api.as('cordelia').post(reactionsOf(privateMessage), { emoji_name: 'octopus' }));
    });

    it('answers 404 for a message id that is not a number, and refuses a deleted message and a message in an archived channel', async () => {
      const messageId = await channelMessage('Denmark', ['iago', 'hamlet']);
      const doomed = await channelMessage('Denmark', ['iago', 'hamlet']);
      expectSuccess(await api.as('iago').delete(`/api/v1/messages/${doomed}`));
      await api.markEvents();
      // Zulip's route wants digits: anything else is an unknown path.
      expectError(await api.as('hamlet').post('/api/v1/messages/abc/reactions', { emoji_name: 'octopus' }), 'Not Found', { status: 404 });
      await refused(await api.as('hamlet').post(reactionsOf(doomed), { emoji_name: 'octopus' }), 'Invalid message(s)');
      const streamId = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'Denmark' })).stream_id;
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${streamId}`));
      await api.markEvents();
      await refused(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'octopus' }), 'Invalid message(s)');
    });

    it('lets a member react to public history they never received, giving them a historical row', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      expectSuccess(await api.as('shiva').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      const { message } = expectSuccess(await api.as('shiva').get(`/api/v1/messages/${messageId}`));
      expect(message.reactions).toEqual([octopus(id('shiva'))]);
      expect([...message.flags].sort()).toEqual(['historical', 'read']);
    });

    it('works as the Python bindings (zulip-terminal) send it: every field in the form body, message_id too', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      const spec = { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', message_id: String(messageId) };
      const { email, apiKey } = api.user('cordelia');
      expectSuccess(await api.http.post(reactionsOf(messageId)).auth(email, apiKey).type('form').send(spec));
      expect(await reactionsOn('hamlet', messageId)).toEqual([{ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: id('cordelia') }]);
      expectSuccess(await api.http.delete(reactionsOf(messageId)).auth(email, apiKey).type('form').send(spec));
      expect(await reactionsOn('hamlet', messageId)).toEqual([]);
    });

    it('accepts the parameters as zulip-js sends them (multipart)', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      expectSuccess(await api.as('cordelia').postMultipart(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expect(await reactionsOn('hamlet', messageId)).toEqual([octopus(id('cordelia'))]);
    });
  });

  describe('DELETE /messages/{message_id}/reactions', () => {
    it('removes the user\'s reaction by name or by code, and only theirs', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      for (const who of ['hamlet', 'cordelia']) expectSuccess(await api.as(who).post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'car' }));
      await api.markEvents();
      expectSuccess(await api.as('hamlet').delete(reactionsOf(messageId), { emoji_name: 'octopus' }));
      const events = await api.newEvents();
      expect(events.map((e) => [e.streamId, e.type])).toEqual([[`message_reactions-${messageId}`, 'ReactionRemoved']]);
      expect(await reactionsOn('hamlet', messageId)).toEqual([octopus(id('cordelia')), { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji', user_id: id('hamlet') }]);
      expectSuccess(await api.as('hamlet').delete(reactionsOf(messageId), { emoji_code: '1f697', reaction_type: 'unicode_emoji' }));
      expect(await reactionsOn('hamlet', messageId)).toEqual([octopus(id('cordelia'))]);
    });

    it('removes extra and custom emoji reactions by code and type, a deactivated custom emoji too', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'iago']);
      const parrot = await uploadEmoji('parrot');
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'parrot' }));
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'zulip' }));
      expectSuccess(await api.as('iago').delete('/api/v1/realm/emoji/parrot'));
      expectSuccess(await api.as('hamlet').delete(reactionsOf(messageId), { emoji_code: parrot, reaction_type: 'realm_emoji' }));
      expectSuccess(await api.as('hamlet').delete(reactionsOf(messageId), { emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
      expect(await reactionsOn('hamlet', messageId)).toEqual([]);
    });

    it('refuses what is not there, and a request naming no emoji, changing nothing', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      const parrot = await uploadEmoji('parrot');
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'parrot' }));
      await api.markEvents();
      await refused(await api.as('hamlet').delete(reactionsOf(messageId), { emoji_name: 'octopus' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      await refused(await api.as('hamlet').delete(reactionsOf(messageId), { emoji_code: '1f419' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      // reaction_type defaults to unicode_emoji, as in Zulip: a custom emoji needs its type.
      await refused(await api.as('cordelia').delete(reactionsOf(messageId), { emoji_code: parrot }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      await refused(await api.as('cordelia').delete(reactionsOf(messageId), {}), 'At least one of the following arguments must be present: emoji_name, emoji_code');
      await refused(await api.as('cordelia').delete(reactionsOf(messageId), { emoji_name: 'no_such_emoji' }), "Emoji 'no_such_emoji' does not exist");
      await refused(await api.as('polonius').delete(reactionsOf(messageId), { emoji_name: 'octopus' }), 'Invalid message(s)');
      expect(await reactionsOn('hamlet', messageId)).toHaveLength(2);
    });

    it('lets a reaction be added again after its removal', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expectSuccess(await api.as('hamlet').delete(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expectSuccess(await api.as('hamlet').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expect(await reactionsOn('hamlet', messageId)).toEqual([octopus(id('hamlet'))]);
    });
  });

  describe('message objects', () => {
    it('carry reactions in GET /messages, and none once the message is deleted', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia', 'iago']);
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      const { messages } = expectSuccess(await api.as('hamlet').get('/api/v1/messages', { anchor: 'newest', num_before: 5, num_after: 0 }));
      expect(messages.find((m: { id: number }) => m.id === messageId).reactions).toEqual([octopus(id('cordelia'))]);
      expectSuccess(await api.as('iago').delete(`/api/v1/messages/${messageId}`));
      expectError(await api.as('hamlet').get(`/api/v1/messages/${messageId}`), 'Invalid message(s)');
    });

    it('are found by the has:reaction narrow (and left out by its negation) while they last', async () => {
      const reacted = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      const plain = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      const dm = await directMessage('cordelia', ['hamlet']);
      const narrowed = async (narrow: unknown[]) =>
        (expectSuccess(await api.as('hamlet').get('/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow })).messages as { id: number }[]).map((m) => m.id);
      expect(await narrowed([{ operator: 'has', operand: 'reaction' }])).toEqual([]);
      expectSuccess(await api.as('cordelia').post(reactionsOf(reacted), { emoji_name: 'octopus' }));
      expectSuccess(await api.as('hamlet').post(reactionsOf(dm), { emoji_name: 'car' }));
      expect(await narrowed([{ operator: 'has', operand: 'reaction' }])).toEqual([reacted, dm]);
      expect(await narrowed([{ operator: 'channel', operand: 'Denmark' }, { operator: 'has', operand: 'reaction' }])).toEqual([reacted]);
      expect(await narrowed([{ operator: 'has', operand: 'reaction', negated: true }])).toEqual([plain]);
      // Polonius (a guest outside the channel) finds nothing of it.
      expect((expectSuccess(await api.as('polonius').get('/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'has', operand: 'reaction' }] })).messages)).toEqual([]);
      expectSuccess(await api.as('cordelia').delete(reactionsOf(reacted), { emoji_name: 'octopus' }));
      expect(await narrowed([{ operator: 'has', operand: 'reaction' }])).toEqual([dm]);
    });

    it('start with no reactions in the message event', async () => {
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [id('hamlet'), id('cordelia')] }));
      const { queue_id } = expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['message'] }));
      expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'hi' }));
      const { events } = expectSuccess(await api.as('cordelia').get('/api/v1/events', { queue_id, last_event_id: -1, dont_block: true }));
      expect(events.map((e: { type: string; message: { reactions: unknown } }) => [e.type, e.message.reactions])).toEqual([['message', []]]);
    });
  });

  it('are described in the OpenAPI document', async () => {
    const document = (await api.http.get('/api/v1/openapi.json')).body;
    const path = document.paths['/api/v1/messages/{message_id}/reactions'];
    expect(Object.keys(path).sort()).toEqual(['delete', 'post']);
    expect(path.post.requestBody.content['application/x-www-form-urlencoded'].schema).toMatchObject({
      properties: { emoji_name: expect.any(Object), emoji_code: expect.any(Object), reaction_type: expect.any(Object) },
      required: ['emoji_name'],
    });
    expect(path.delete.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort()).toEqual(['path:message_id', 'query:emoji_code', 'query:emoji_name', 'query:reaction_type']);
  });

  describe('reaction events', () => {
    const register = (who: string) => queueOf(who, ['reaction']);
    const reactionEvent = (op: string, messageId: number, who: string, emoji = { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }) => ({
      id: expect.any(Number),
      type: 'reaction',
      op,
      user_id: id(who),
      user: { user_id: id(who), email: api.user(who).email, full_name: expect.any(String) },
      message_id: messageId,
      ...emoji,
    });

    it('tell a channel\'s subscribers, and no one else, of an added and a removed reaction', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      const queues = Object.fromEntries(await Promise.all(['hamlet', 'cordelia', 'iago', 'polonius'].map(async (who) => [who, await register(who)] as const)));
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expectSuccess(await api.as('cordelia').delete(reactionsOf(messageId), { emoji_code: '1f419' }));
      for (const who of ['hamlet', 'cordelia']) {
        expect(await eventsOf(who, queues[who])).toEqual([reactionEvent('add', messageId, 'cordelia'), reactionEvent('remove', messageId, 'cordelia')]);
      }
      // Iago may read the public channel but is not subscribed and has no row; Polonius is a guest outside it.
      expect(await eventsOf('iago', queues.iago)).toEqual([]);
      expect(await eventsOf('polonius', queues.polonius)).toEqual([]);
    });

    it('reach a non-subscriber who reacted (their historical row), with the full name in the user object', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      const queue = await register('iago');
      expectSuccess(await api.as('iago').post(reactionsOf(messageId), { emoji_name: 'zulip' }));
      expect(await eventsOf('iago', queue)).toEqual([
        { ...reactionEvent('add', messageId, 'iago', { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }), user: { user_id: id('iago'), email: api.user('iago').email, full_name: 'Iago' } },
      ]);
    });

    it('tell only the participants of a direct message, and a private channel\'s subscribers', async () => {
      const dm = await directMessage('hamlet', ['cordelia']);
      const secret = await channelMessage('Secret', ['hamlet', 'cordelia'], { private: true });
      const queues = Object.fromEntries(await Promise.all(['hamlet', 'cordelia', 'iago', 'desdemona'].map(async (who) => [who, await register(who)] as const)));
      expectSuccess(await api.as('cordelia').post(reactionsOf(dm), { emoji_name: 'octopus' }));
      expectSuccess(await api.as('hamlet').post(reactionsOf(secret), { emoji_name: 'octopus' }));
      for (const who of ['hamlet', 'cordelia']) {
        expect(await eventsOf(who, queues[who])).toEqual([reactionEvent('add', dm, 'cordelia'), reactionEvent('add', secret, 'hamlet')]);
      }
      expect(await eventsOf('iago', queues.iago)).toEqual([]);
      expect(await eventsOf('desdemona', queues.desdemona)).toEqual([]);
    });

    it('are not sent for refused requests', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      const queue = await register('hamlet');
      expectError(await api.as('cordelia').delete(reactionsOf(messageId), { emoji_name: 'octopus' }), "Reaction doesn't exist.");
      expectError(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'nope' }), "Emoji 'nope' does not exist");
      expect(await eventsOf('hamlet', queue)).toEqual([]);
    });
  });
  describe('automatic topic follow / unmute on participation (do_add_reaction)', () => {
    const setting = async (who: string, settings: Record<string, number>) => expectSuccess(await api.as(who).patch('/api/v1/settings', settings));
    const streamId = (name: string) => api.channelId(name);
    /** The user's policies (POST /register `user_topics`), as [topic, policy]. */
    const policies = async (who: string) => (await api.userTopics(who)).map((t) => [t.topic_name, t.visibility_policy]);
    const setPolicy = async (who: string, channel: string, visibility_policy: number) =>
      expectSuccess(await api.as(who).post('/api/v1/user_topics', { stream_id: await streamId(channel), topic: 'reactions', visibility_policy }));
    const muteChannel = async (who: string, channel: string) =>
      expectSuccess(
        await api.as(who).post('/api/v1/users/me/subscriptions/properties', { subscription_data: JSON.stringify([{ stream_id: await streamId(channel), property: 'is_muted', value: true }]) }),
      );
    const react = async (who: string, messageId: number, emoji_name = 'octopus') => {
      await api.markEvents();
      expectSuccess(await api.as(who).post(reactionsOf(messageId), { emoji_name }));
      return (await api.newEvents()).map((e) => [e.streamId, e.type, e.type === 'UserTopicVisibilityPolicyChanged' ? e.data : undefined]);
    };

    it('follows the topic for a subscriber whose automatically_follow_topics_policy is "on participation" (1), recorded with the reaction', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      await setting('cordelia', { automatically_follow_topics_policy: 1 });
      expect(await react('cordelia', messageId)).toEqual([
        [`message_reactions-${messageId}`, 'UserTopicVisibilityPolicyChanged', expect.objectContaining({ userId: id('cordelia'), topic: 'reactions', oldPolicy: 0, newPolicy: 3, messageId })],
        [`message_reactions-${messageId}`, 'ReactionAdded', undefined],
      ]);
      expect(await policies('cordelia')).toEqual([['reactions', 3]]);
      // A second reaction in the followed topic changes nothing more.
      expect((await react('cordelia', messageId, 'tada')).map(([, type]) => type)).toEqual(['ReactionAdded']);
    });

    it("changes nothing under Zulip's defaults and under \"never\" (4)", async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia', 'iago']);
      await muteChannel('iago', 'Denmark');
      await setting('iago', { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 4 });
      expect((await react('cordelia', messageId)).map(([, type]) => type)).toEqual(['ReactionAdded']);
      expect((await react('iago', messageId)).map(([, type]) => type)).toEqual(['ReactionAdded']);
      expect(await policies('cordelia')).toEqual([]);
      expect(await policies('iago')).toEqual([]);
    });

    it('never lowers a followed topic, raises a muted one, and unmutes in a muted channel under the unmute policy', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      await muteChannel('cordelia', 'Denmark');
      await setting('cordelia', { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 1 });
      // A muted channel: the topic is unmuted (visibility_policy 2).
      expect(await react('cordelia', messageId)).toEqual([
        [`message_reactions-${messageId}`, 'UserTopicVisibilityPolicyChanged', expect.objectContaining({ oldPolicy: 0, newPolicy: 2 })],
        [`message_reactions-${messageId}`, 'ReactionAdded', undefined],
      ]);
      expect(await policies('cordelia')).toEqual([['reactions', 2]]);
      // Followed: the unmute policy does not bring it down to UNMUTED.
      await setPolicy('cordelia', 'Denmark', 3);
      expect((await react('cordelia', messageId, 'tada')).map(([, type]) => type)).toEqual(['ReactionAdded']);
      expect(await policies('cordelia')).toEqual([['reactions', 3]]);
      // Muted by hand: raised again to UNMUTED.
      await setPolicy('cordelia', 'Denmark', 1);
      expect((await react('cordelia', messageId, 'heart'))[0][2]).toMatchObject({ oldPolicy: 1, newPolicy: 2 });
      expect(await policies('cordelia')).toEqual([['reactions', 2]]);
    });

    it('follows a topic the user muted in a channel that is not muted, under the follow policy', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      await setting('cordelia', { automatically_follow_topics_policy: 1, automatically_unmute_topics_in_muted_streams_policy: 1 });
      await setPolicy('cordelia', 'Denmark', 1);
      expect((await react('cordelia', messageId))[0][2]).toMatchObject({ oldPolicy: 1, newPolicy: 3 });
      expect(await policies('cordelia')).toEqual([['reactions', 3]]);
    });

    it('changes nothing for a direct message, for a reader not subscribed to the channel, for a bot, or when a reaction is removed', async () => {
      const dm = await directMessage('hamlet', ['cordelia']);
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      for (const who of ['cordelia', 'iago']) await setting(who, { automatically_follow_topics_policy: 1 });
      expect((await react('cordelia', dm)).map(([, type]) => type)).toEqual(['ReactionAdded']);
      // Iago reads the public channel without a subscription (access_stream_by_id gives no `sub`).
      expect((await react('iago', messageId)).map(([, type]) => type)).toEqual(['ReactionAdded']);
      expect(await policies('iago')).toEqual([]);
      // A bot, subscribed, with the setting (set_visibility_policy_possible: not for bots).
      const bot = expectSuccess(await api.as('hamlet').post('/api/v1/bots', { full_name: 'Reaction Bot', short_name: 'reactor' }));
      const botEmail = expectSuccess(await api.as('hamlet').get(`/api/v1/users/${bot.user_id}`)).user.email as string;
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [bot.user_id] }));
      // A bot cannot change its settings through the API (nor can an administrator for it): recorded directly.
      await api.givenEvents(`user_settings-${bot.user_id}`, [
        {
          type: 'UserSettingChanged',
          data: { realmId: api.realmId, userId: bot.user_id, property: 'automatically_follow_topics_policy', oldValue: 3, newValue: 1, actorId: null, editedBySelf: false, at: new Date().toISOString() },
        },
      ]);
      await api.markEvents();
      expectSuccess(await api.http.post(reactionsOf(messageId)).auth(botEmail, bot.api_key).type('form').send({ emoji_name: 'tada' }));
      expect((await api.newEvents()).map((e) => e.type)).toEqual(['ReactionAdded']);
      // Removing: no policy change (the follow from adding was undone by hand).
      await react('cordelia', messageId);
      await setPolicy('cordelia', 'Denmark', 0);
      await api.markEvents();
      expectSuccess(await api.as('cordelia').delete(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expect((await api.newEvents()).map((e) => e.type)).toEqual(['ReactionRemoved']);
      expect(await policies('cordelia')).toEqual([]);
    });

    it("delivers the user_topic event (and the deprecated muted_topics) to the user's queues, before the reaction event, as POST /user_topics does", async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      const stream_id = await streamId('Denmark');
      await setting('cordelia', { automatically_follow_topics_policy: 1 });
      const register = queueOf;
      const modern = await register('cordelia', ['user_topic', 'reaction']);
      const legacy = await register('cordelia', ['muted_topics']);
      const hamlet = await register('hamlet', ['user_topic', 'muted_topics']);
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expect(await eventsOf('cordelia', modern)).toEqual([
        { id: 0, type: 'user_topic', stream_id, topic_name: 'reactions', last_updated: expect.any(Number), visibility_policy: 3 },
        expect.objectContaining({ id: 1, type: 'reaction', op: 'add', user_id: id('cordelia'), message_id: messageId }),
      ]);
      // Zulip's get_topic_mutes lists muted topics only: a followed topic leaves the list empty.
      expect(await eventsOf('cordelia', legacy)).toEqual([{ id: 0, type: 'muted_topics', muted_topics: [] }]);
      expect(await eventsOf('hamlet', hamlet)).toEqual([]);
    });
  });

  describe('reaction_type of Zulip\'s extra emoji', () => {
    const zulipEmoji = { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' };
    const reactionTypesSent = async (messageId: number) => {
      const queueId = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['reaction'] })).queue_id as string;
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), zulipEmoji));
      const events = expectSuccess(await api.as('hamlet').get('/api/v1/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).events;
      const { messages } = expectSuccess(await api.as('hamlet').get('/api/v1/messages', { anchor: messageId, num_before: 0, num_after: 0 }));
      return {
        event: events.map((e: { reaction_type: string }) => e.reaction_type),
        getMessage: (await reactionsOn('hamlet', messageId)).map((r: { reaction_type: string }) => r.reaction_type),
        getMessages: messages[0].reactions.map((r: { reaction_type: string }) => r.reaction_type),
      };
    };

    it('is stored as the spec\'s svc_extra_emoji and sent as zulip_extra_emoji under ZULIP_ALIASES (zulip-flutter refuses an unknown value)', async () => {
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      await api.markEvents();
      expect(await reactionTypesSent(messageId)).toEqual({ event: ['zulip_extra_emoji'], getMessage: ['zulip_extra_emoji'], getMessages: ['zulip_extra_emoji'] });
      expect((await api.newEvents()).map((e) => e.data.reactionType)).toEqual(['svc_extra_emoji']);
      // Removing it under either spelling, then Unicode emoji keep their type.
      expectSuccess(await api.as('cordelia').delete(reactionsOf(messageId), { emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' }));
      expectSuccess(await api.as('cordelia').post(reactionsOf(messageId), { emoji_name: 'octopus' }));
      expect(await reactionsOn('hamlet', messageId)).toEqual([octopus(id('cordelia'))]);
    });

    it('is sent as svc_extra_emoji when ZULIP_ALIASES is off', async () => {
      await api.close();
      api = await ApiTestClient.start({ config: { zulipAliases: false } });
      const messageId = await channelMessage('Denmark', ['hamlet', 'cordelia']);
      expect(await reactionTypesSent(messageId)).toEqual({ event: ['svc_extra_emoji'], getMessage: ['svc_extra_emoji'], getMessages: ['svc_extra_emoji'] });
    });
  });
});
