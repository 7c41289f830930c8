import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** ≈ zerver/tests/test_muted_topics.py: the deprecated PATCH /users/me/subscriptions/muted_topics (Python bindings' mute_topic). */
const URL = '/api/v1/users/me/subscriptions/muted_topics';

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id } = personaHelpers(() => api);
  let denmark: number;
  beforeEach(async () => {
    expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [id('iago'), id('hamlet')] }));
    denmark = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'Denmark' })).stream_id as number;
  });
  const policies = async (who: string) =>
    (expectSuccess(await api.as(who).post('/api/v1/register', { fetch_event_types: ['user_topic'] })).user_topics as { stream_id: number; topic_name: string; visibility_policy: number }[])
      .map((t) => [t.stream_id, t.topic_name, t.visibility_policy]);

  it('mutes and unmutes by channel id or name, as POST /user_topics would', async () => {
    expectSuccess(await api.as('hamlet').patch(URL, { stream_id: denmark, topic: 'plans', op: 'add' }));
    expectSuccess(await api.as('hamlet').patch(URL, { stream: 'denmark', topic: 'other', op: 'add' }));
    expect(await policies('hamlet')).toEqual([[denmark, 'other', 1], [denmark, 'plans', 1]]);
    expectSuccess(await api.as('hamlet').patch(URL, { stream: 'Denmark', topic: 'plans', op: 'remove' }));
    expectSuccess(await api.as('hamlet').patch(URL, { stream_id: denmark, topic: 'other', op: 'remove' }));
    expect(await policies('hamlet')).toEqual([]);
  });

  it('is not shadowed by PATCH /users/me/subscriptions/{stream_id}', async () => {
    const response = await api.as('hamlet').patch(URL, { stream_id: denmark, topic: 'plans', op: 'add' });
    expect(response.status).toBe(200);
    expectSuccess(await api.as('hamlet').patch(`/api/v1/users/me/subscriptions/${denmark}`, { property: 'pin_to_top', value: true }));
  });

  it('refuses bad parameters and channels, changing nothing', async () => {
    await api.markEvents();
    expectError(await api.as('hamlet').patch(URL, { topic: 'plans', op: 'add' }), "Missing 'stream_id' argument", { code: 'BAD_REQUEST' });
    expectError(await api.as('hamlet').patch(URL, { stream_id: denmark, stream: 'Denmark', topic: 'plans', op: 'add' }), 'Unsupported parameter combination: stream_id, stream');
    expectError(await api.as('hamlet').patch(URL, { stream_id: denmark, topic: 'plans', op: 'toggle' }), 'Invalid op');
    expectError(await api.as('hamlet').patch(URL, { stream_id: denmark, topic: 'x'.repeat(61), op: 'add' }), 'topic is too long (limit: 60 characters)');
    expectError(await api.as('hamlet').patch(URL, { stream_id: 99999, topic: 'plans', op: 'add' }), 'Invalid channel ID');
    expectError(await api.as('hamlet').patch(URL, { stream: 'Nowhere', topic: 'plans', op: 'add' }), "Invalid channel name 'Nowhere'");
    expectError(await api.as('hamlet').patch(URL, { stream: 'Nowhere', topic: 'plans', op: 'remove' }), 'Topic is not muted');
    expectError(await api.as('polonius').patch(URL, { stream_id: denmark, topic: 'plans', op: 'add' }), 'Invalid channel ID');
    expect(await api.newEvents()).toEqual([]);
  });
});
