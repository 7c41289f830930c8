import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * A channel's own `topics_policy` (≈ the topics_policy tests of zerver/tests/test_subs.py and
 * test_message_send.py): PATCH /streams/{id}, POST /users/me/subscriptions, the stream object, the
 * `stream` update event, and sends and moves checked against it.
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const MESSAGES = '/api/v1/messages';
const ONLY_GENERAL_CHAT = 'Only the general chat topic is allowed in this channel.';
const NO_GENERAL_CHAT = 'Sending messages to the general chat is not allowed in this channel.';

describe('per-channel topics_policy', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, queue: queueOf, events, refused: refusedWith } = personaHelpers(() => api);
  const groupId = (name: string) => api.systemGroupId(name);
  const channelId = async (name: string) => {
    const streams = expectSuccess(await api.as('iago').get('/api/v1/streams', { include_all: true })).streams as { name: string; stream_id: number }[];
    return streams.find((s) => s.name === name)?.stream_id;
  };
  const createChannel = async (who: string, name: string, options: Record<string, unknown> = {}): Promise<number> => {
    expectSuccess(await api.as(who).post(SUBSCRIPTIONS, { subscriptions: [{ name }], principals: [id('hamlet'), id('cordelia')], ...options }));
    return (await channelId(name))!;
  };
  const setPolicy = (who: string, stream: number, policy: string) => api.as(who).patch(`/api/v1/streams/${stream}`, { topics_policy: policy });
  const policyOf = async (stream: number) => expectSuccess(await api.as('iago').get(`/api/v1/streams/${stream}`)).stream.topics_policy;
  const send = (who: string, topic: string) => api.as(who).post(MESSAGES, { type: 'stream', to: 'Denmark', topic, content: 'hello' });
  /** The error, and that nothing was appended for it. */
  const refused = (response: Parameters<typeof expectError>[0], msg: string) => refusedWith(response, msg, { code: 'BAD_REQUEST', status: 400 });

  describe('PATCH /streams/{id} with topics_policy', () => {
    it('sets each policy, reported in the stream object, GET /users/me/subscriptions and /register', async () => {
      const denmark = await createChannel('hamlet', 'Denmark');
      expect(await policyOf(denmark)).toBe('inherit');
      for (const policy of ['allow_empty_topic', 'disable_empty_topic', 'empty_topic_only', 'inherit']) {
        expectSuccess(await setPolicy('iago', denmark, policy));
        expect(await policyOf(denmark)).toBe(policy);
      }
      expectSuccess(await setPolicy('iago', denmark, 'empty_topic_only'));
      const subs = expectSuccess(await api.as('cordelia').get(SUBSCRIPTIONS)).subscriptions as { stream_id: number; topics_policy: string }[];
      expect(subs.find((s) => s.stream_id === denmark)?.topics_policy).toBe('empty_topic_only');
      const state = expectSuccess(await api.as('cordelia').post('/api/v1/register', { fetch_event_types: JSON.stringify(['subscription', 'realm']) }));
      expect(state.subscriptions.find((s: { stream_id: number }) => s.stream_id === denmark).topics_policy).toBe('empty_topic_only');
      expect(state.realm_can_set_topics_policy_group).toBe(groupId('role:members'));
    });

    it('refuses empty_topic_only for a channel with messages in named topics (CannotSetTopicsPolicyError); other policies stay allowed', async () => {
      const denmark = await createChannel('hamlet', 'Denmark');
      expectSuccess(await send('hamlet', ''));
      expectSuccess(await setPolicy('iago', denmark, 'empty_topic_only'));
      expectSuccess(await setPolicy('iago', denmark, 'inherit'));
      expectSuccess(await send('hamlet', 'greetings'));
      await api.markEvents();
      const body = await refused(
        await setPolicy('iago', denmark, 'empty_topic_only'),
        'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.',
      );
      expect(body.empty_topic_display_name).toBe('general chat');
      expect(await policyOf(denmark)).toBe('inherit');
      expectSuccess(await setPolicy('iago', denmark, 'disable_empty_topic'));
    });

    it('sends a stream update event (property topics_policy) to those who may see the channel, only when the value changes', async () => {
      const denmark = await createChannel('hamlet', 'Denmark', { invite_only: true });
      const queue = (who: string) => queueOf(who, ['stream']);
      const [cordeliaQueue, shivaQueue] = [await queue('cordelia'), await queue('shiva')];
      expectSuccess(await setPolicy('hamlet', denmark, 'disable_empty_topic'));
      expectSuccess(await setPolicy('hamlet', denmark, 'disable_empty_topic'));
      expect(await events('cordelia', cordeliaQueue)).toEqual([
        { id: 0, type: 'stream', op: 'update', stream_id: denmark, name: 'Denmark', property: 'topics_policy', value: 'disable_empty_topic' },
      ]);
      // Shiva, a moderator, is not subscribed to the private channel.
      expect(await events('shiva', shivaQueue)).toEqual([]);
    });

    it('needs can_set_topics_policy_group for any policy but "inherit": "Insufficient permission"; administrators always may', async () => {
      const denmark = await createChannel('hamlet', 'Denmark');
      expectSuccess(await setPolicy('hamlet', denmark, 'allow_empty_topic'));
      expectSuccess(await api.as('iago').patch('/api/v1/realm', { can_set_topics_policy_group: JSON.stringify({ new: groupId('role:nobody') }) }));
      await api.markEvents();
      await refused(await setPolicy('hamlet', denmark, 'empty_topic_only'), 'Insufficient permission');
      // Nothing else of the request is applied either.
      await refused(await api.as('hamlet').patch(`/api/v1/streams/${denmark}`, { topics_policy: 'empty_topic_only', description: 'new' }), 'Insufficient permission');
      expect(await policyOf(denmark)).toBe('allow_empty_topic');
      expectSuccess(await setPolicy('hamlet', denmark, 'inherit'));
      expectSuccess(await setPolicy('iago', denmark, 'empty_topic_only'));
      expect(await policyOf(denmark)).toBe('empty_topic_only');
    });

    it('needs the right to administer the channel, and a known policy', async () => {
      const denmark = await createChannel('hamlet', 'Denmark');
      await api.markEvents();
      await refused(await setPolicy('cordelia', denmark, 'allow_empty_topic'), 'You do not have permission to administer this channel.');
      await refused(await setPolicy('iago', denmark, 'no_topics'), 'Invalid topics_policy');
      await refused(await setPolicy('iago', 99999, 'inherit'), 'Invalid channel ID');
    });

    it('refuses can_set_topics_policy_group role:everyone, as Zulip (allow_everyone_group is false)', async () => {
      await api.markEvents();
      const response = await api.as('iago').patch('/api/v1/realm', { can_set_topics_policy_group: JSON.stringify({ new: groupId('role:everyone') }) });
      expectError(response, "'can_set_topics_policy_group' setting cannot be set to 'role:everyone' group.");
    });
  });

  describe('topics_policy of POST /users/me/subscriptions', () => {
    it('creates the channel with it', async () => {
      const denmark = await createChannel('hamlet', 'Denmark', { topics_policy: 'empty_topic_only' });
      expect(await policyOf(denmark)).toBe('empty_topic_only');
    });

    it('refuses it without can_set_topics_policy_group and creates nothing; "inherit" needs no permission', async () => {
      expectSuccess(await api.as('iago').patch('/api/v1/realm', { can_set_topics_policy_group: JSON.stringify({ new: groupId('role:nobody') }) }));
      await api.markEvents();
      await refused(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: JSON.stringify([{ name: 'Denmark' }]), topics_policy: 'disable_empty_topic' }), 'Insufficient permission');
      expect(await channelId('Denmark')).toBeUndefined();
      await refused(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: JSON.stringify([{ name: 'Denmark' }]), topics_policy: 'nope' }), 'Invalid topics_policy');
      const denmark = await createChannel('hamlet', 'Denmark', { topics_policy: 'inherit' });
      expect(await policyOf(denmark)).toBe('inherit');
    });
  });

  describe('sends checked against the channel\'s policy (get_stream_topics_policy)', () => {
    let denmark: number;
    beforeEach(async () => (denmark = await createChannel('hamlet', 'Denmark')));

    it('empty_topic_only refuses named topics and accepts the empty topic, however it is named', async () => {
      expectSuccess(await setPolicy('iago', denmark, 'empty_topic_only'));
      await api.markEvents();
      const body = await refused(await send('cordelia', 'greetings'), ONLY_GENERAL_CHAT);
      // TopicsNotAllowedError's data field, as JsonableError sends it.
      expect(body.empty_topic_display_name).toBe('general chat');
      for (const topic of ['', '(no topic)', 'general chat']) expectSuccess(await send('cordelia', topic));
    });

    it('the channel\'s disable_empty_topic refuses the empty topic while the organization allows it', async () => {
      expectSuccess(await setPolicy('iago', denmark, 'disable_empty_topic'));
      await api.markEvents();
      expect((await refused(await send('cordelia', ''), NO_GENERAL_CHAT)).empty_topic_display_name).toBe('general chat');
      expectSuccess(await send('cordelia', 'greetings'));
    });

    it('the channel\'s allow_empty_topic accepts the empty topic while the organization disables it; "inherit" follows the organization', async () => {
      expectSuccess(await api.as('iago').patch('/api/v1/realm', { topics_policy: 'disable_empty_topic' }));
      expectSuccess(await setPolicy('iago', denmark, 'allow_empty_topic'));
      expectSuccess(await send('cordelia', ''));
      expectSuccess(await setPolicy('iago', denmark, 'inherit'));
      await api.markEvents();
      await refused(await send('cordelia', ''), NO_GENERAL_CHAT);
    });

    it('a move into a named topic of an empty_topic_only channel is refused; into its empty topic it is not', async () => {
      await createChannel('hamlet', 'Verona');
      const verona = (await channelId('Verona'))!;
      const { id: messageId } = expectSuccess(await api.as('cordelia').post(MESSAGES, { type: 'stream', to: 'Verona', topic: 'plans', content: 'hi' }));
      expectSuccess(await setPolicy('iago', denmark, 'empty_topic_only'));
      await api.markEvents();
      await refused(await api.as('iago').patch(`${MESSAGES}/${messageId}`, { stream_id: denmark }), ONLY_GENERAL_CHAT);
      expectSuccess(await api.as('iago').patch(`${MESSAGES}/${messageId}`, { stream_id: denmark, topic: '' }));
      expect(expectSuccess(await api.as('iago').get(`${MESSAGES}/${messageId}`)).message).toMatchObject({ stream_id: denmark, subject: 'general chat' });
      expect(verona).not.toBe(denmark);
    });
  });
});
