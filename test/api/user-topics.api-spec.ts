import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * Topic visibility policies (≈ zerver/tests/test_user_topics.py): POST /user_topics, and where
 * the policies apply: the `in:home`, `is:muted` and `is:followed` narrows of GET /messages and
 * POST /messages/flags/narrow, and the counts of /register's unread_msgs.
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const MESSAGES = '/api/v1/messages';
const USER_TOPICS = '/api/v1/user_topics';
const { INHERIT, MUTED, UNMUTED, FOLLOWED } = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 };

describe('user topics', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, register: registerAs, events, createChannel: createAs } = personaHelpers(() => api);
  const createChannel = (who: string, name: string, options: Record<string, unknown> = {}) => createAs(who, name, options, { lookUpAs: 'iago' });
  const toChannel = async (who: string, to: string, topic: string, content: string): Promise<number> =>
    expectSuccess(await api.as(who).post(MESSAGES, { type: 'stream', to, topic, content })).id;
  const setPolicy = (who: string, streamId: number, topic: string, policy: number | string) =>
    api.as(who).post(USER_TOPICS, { stream_id: streamId, topic, visibility_policy: policy });
  const muteChannel = async (who: string, streamId: number) =>
    expectSuccess(await api.as(who).post('/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property: 'is_muted', value: true }] }));
  const ids = async (who: string, narrow: unknown[]): Promise<number[]> => {
    const body = expectSuccess(await api.as(who).get(MESSAGES, { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify(narrow) }));
    return body.messages.map((m: { id: number }) => m.id);
  };
  const unreadMsgs = async (who: string) =>
    expectSuccess(await api.as(who).post('/api/v1/register', { fetch_event_types: ['message', 'update_message_flags'] })).unread_msgs;
  const home = [{ operator: 'in', operand: 'home' }];
  const notHome = [{ operator: 'in', operand: 'home', negated: true }];
  const isMuted = [{ operator: 'is', operand: 'muted' }];
  const isFollowed = [{ operator: 'is', operand: 'followed' }];

  /** Denmark (hamlet, cordelia): topics "quiet", "loud"; Elsinore (same): topics "a", "b"; one DM. */
  let denmark: number;
  let elsinore: number;
  let m: { quiet: number; loud: number; a: number; b: number; dm: number };
  beforeEach(async () => {
    denmark = await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
    elsinore = await createChannel('hamlet', 'Elsinore', { principals: [id('hamlet'), id('cordelia')] });
    m = {
      quiet: await toChannel('hamlet', 'Denmark', 'quiet', 'q'),
      loud: await toChannel('hamlet', 'Denmark', 'Loud', 'l'),
      a: await toChannel('hamlet', 'Elsinore', 'a', 'a'),
      b: await toChannel('hamlet', 'Elsinore', 'b', 'b'),
      dm: expectSuccess(await api.as('hamlet').post(MESSAGES, { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'psst' })).id,
    };
  });

  describe('POST /user_topics', () => {
    it('mutes a topic (compared case-insensitively): in:home leaves it out, is:muted keeps only it', async () => {
      expectSuccess(await setPolicy('cordelia', denmark, 'loud', MUTED));
      expect(await ids('cordelia', home)).toEqual([m.quiet, m.a, m.b, m.dm]);
      expect(await ids('cordelia', isMuted)).toEqual([m.loud]);
      expect(await ids('cordelia', notHome)).toEqual([m.loud]);
      // Not muted for anyone else; and inside the channel's narrow too, as Zulip's in:home.
      expect(await ids('hamlet', home)).toEqual([m.quiet, m.loud, m.a, m.b, m.dm]);
      expect(await ids('cordelia', [{ operator: 'channel', operand: 'Denmark' }, ...home])).toEqual([m.quiet]);
    });

    it('with nothing muted: in:home and -in:home keep everything, is:muted finds nothing (as Zulip)', async () => {
      const all = [m.quiet, m.loud, m.a, m.b, m.dm];
      expect(await ids('cordelia', home)).toEqual(all);
      expect(await ids('cordelia', notHome)).toEqual(all);
      expect(await ids('cordelia', isMuted)).toEqual([]);
      expect(await ids('cordelia', [{ operator: 'is', operand: 'muted', negated: true }])).toEqual(all);
    });

    it('unmuted and followed topics of a muted channel stay visible', async () => {
      await muteChannel('cordelia', elsinore);
      expect(await ids('cordelia', home)).toEqual([m.quiet, m.loud, m.dm]);
      expectSuccess(await setPolicy('cordelia', elsinore, 'a', UNMUTED));
      expect(await ids('cordelia', home)).toEqual([m.quiet, m.loud, m.a, m.dm]);
      expect(await ids('cordelia', isMuted)).toEqual([m.b]);
      expectSuccess(await setPolicy('cordelia', elsinore, 'a', FOLLOWED));
      expectSuccess(await setPolicy('cordelia', elsinore, 'b', FOLLOWED));
      expect(await ids('cordelia', isMuted)).toEqual([]);
      expect(await ids('cordelia', isFollowed)).toEqual([m.a, m.b]);
      // Back to the channel's policy: muted again.
      expectSuccess(await setPolicy('cordelia', elsinore, 'b', INHERIT));
      expect(await ids('cordelia', isMuted)).toEqual([m.b]);
      expect(await ids('cordelia', isFollowed)).toEqual([m.a]);
    });

    it('is:followed lists the messages of followed topics only', async () => {
      expect(await ids('cordelia', isFollowed)).toEqual([]);
      expectSuccess(await setPolicy('cordelia', denmark, 'LOUD', FOLLOWED));
      expect(await ids('cordelia', isFollowed)).toEqual([m.loud]);
      expect(await ids('cordelia', [{ operator: 'is', operand: 'followed', negated: true }])).toEqual([m.quiet, m.a, m.b, m.dm]);
    });

    it('applies the policies to the flags narrow too', async () => {
      expectSuccess(await setPolicy('cordelia', denmark, 'quiet', MUTED));
      const body = expectSuccess(await api.as('cordelia').post('/api/v1/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: JSON.stringify(home), op: 'add', flag: 'read' }));
      expect(body).toMatchObject({ processed_count: 4, updated_count: 4 });
      expect(await ids('cordelia', [{ operator: 'is', operand: 'unread' }])).toEqual([m.quiet]);
    });

    it('setting the current policy again, or removing one that does not exist, succeeds and changes nothing', async () => {
      expectSuccess(await setPolicy('cordelia', denmark, 'loud', MUTED));
      expectSuccess(await setPolicy('cordelia', denmark, 'loud', MUTED));
      expectSuccess(await setPolicy('cordelia', denmark, 'never used', INHERIT));
      expect(await ids('cordelia', isMuted)).toEqual([m.loud]);
    });

    it('reads the empty topic\'s display name as the empty topic', async () => {
      const general = await toChannel('hamlet', 'Denmark', '', 'no topic');
      expectSuccess(await setPolicy('cordelia', denmark, 'general chat', MUTED));
      expect(await ids('cordelia', isMuted)).toEqual([general]);
    });

    it('refuses channels the user cannot reach: "Invalid channel ID"', async () => {
      const secret = await createChannel('hamlet', 'secret', { invite_only: true });
      for (const streamId of [secret, 999_999]) expectError(await setPolicy('cordelia', streamId, 't', MUTED), 'Invalid channel ID');
      // Removing a policy only needs the channel to exist (access_stream_to_remove_visibility_policy_by_id).
      expectSuccess(await setPolicy('cordelia', secret, 't', INHERIT));
      expectError(await setPolicy('cordelia', 999_999, 't', INHERIT), 'Invalid channel ID');
    });

    it('refuses a topic longer than 60 characters, then an unknown policy', async () => {
      expectError(await setPolicy('cordelia', denmark, 'x'.repeat(61), 9), 'topic is too long (limit: 60 characters)');
      for (const policy of [4, -1]) expectError(await setPolicy('cordelia', denmark, 't', policy), 'Invalid visibility_policy');
      expect(await ids('cordelia', isMuted)).toEqual([]);
    });

    it('needs every parameter', async () => {
      expectError(await api.as('cordelia').post(USER_TOPICS, { stream_id: denmark, topic: 't' }), "Missing 'visibility_policy' argument");
      expectError(await api.as('cordelia').post(USER_TOPICS, { stream_id: denmark, visibility_policy: 1 }), "Missing 'topic' argument");
      expectError(await api.as('cordelia').post(USER_TOPICS, { topic: 't', visibility_policy: 1 }), "Missing 'stream_id' argument");
    });
  });

  describe('unread_msgs', () => {
    it('still lists muted topics\' messages but leaves them out of count and wildcard mentions', async () => {
      const wildcard = await toChannel('hamlet', 'Denmark', 'loud', '@**channel** hear ye');
      expectSuccess(await setPolicy('cordelia', denmark, 'loud', MUTED));
      const unread = await unreadMsgs('cordelia');
      expect(unread.streams).toEqual([
        { stream_id: denmark, topic: 'Loud', unread_message_ids: [m.loud, wildcard] },
        { stream_id: denmark, topic: 'quiet', unread_message_ids: [m.quiet] },
        { stream_id: elsinore, topic: 'a', unread_message_ids: [m.a] },
        { stream_id: elsinore, topic: 'b', unread_message_ids: [m.b] },
      ]);
      expect(unread.count).toBe(4); // quiet, a, b, the DM
      expect(unread.mentions).toEqual([]);
    });

    it('counts the unmuted and followed topics of a muted channel', async () => {
      await muteChannel('cordelia', elsinore);
      expect((await unreadMsgs('cordelia')).count).toBe(3);
      expectSuccess(await setPolicy('cordelia', elsinore, 'A', UNMUTED));
      expect((await unreadMsgs('cordelia')).count).toBe(4);
      expectSuccess(await setPolicy('cordelia', elsinore, 'b', FOLLOWED));
      expect((await unreadMsgs('cordelia')).count).toBe(5);
    });
  });

  describe('events', () => {
    const register = async (who: string, params: Record<string, unknown>) => (await registerAs(who, params)).queue_id as string;

    it('sends the deprecated muted_topics (the whole list) then user_topic; not muted_topics to queues that asked for user_topic', async () => {
      const verona = await createChannel('hamlet', 'Verona');
      const legacy = await register('hamlet', { event_types: ['muted_topics'] });
      const modern = await register('hamlet', { event_types: ['muted_topics', 'user_topic'] });
      const everything = await register('hamlet', {});
      expectSuccess(await setPolicy('hamlet', verona, 'noise', MUTED));
      const mutedTopics = { type: 'muted_topics', muted_topics: [['Verona', 'noise', expect.any(Number)]] };
      const userTopic = { type: 'user_topic', stream_id: verona, topic_name: 'noise', visibility_policy: MUTED, last_updated: expect.any(Number) };
      expect(await events('hamlet', legacy)).toEqual([{ id: 0, ...mutedTopics }]);
      expect(await events('hamlet', modern)).toEqual([{ id: 0, ...userTopic }]);
      expect((await events('hamlet', everything)).filter((e) => e.type === 'muted_topics' || e.type === 'user_topic')).toEqual([
        { id: expect.any(Number), ...mutedTopics },
        { id: expect.any(Number), ...userTopic },
      ]);
      // Unmuting sends the shorter list.
      expectSuccess(await setPolicy('hamlet', verona, 'noise', INHERIT));
      expect((await events('hamlet', legacy)).at(-1)).toEqual({ id: 1, type: 'muted_topics', muted_topics: [] });
    });
  });
});
