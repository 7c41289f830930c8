import { ApiTestClient, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** The older /register sections zulip-terminal asks for: `message`, `starred_messages`, `muted_topics`. */
describe('POST /register: message, starred_messages, muted_topics', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, register: registerAs, sendToChannel } = personaHelpers(() => api);
  const register = (who: string, types: string[]) => registerAs(who, { fetch_event_types: types });

  it('answers max_message_id -1 and empty lists for a new user', async () => {
    const state = await register('hamlet', ['message', 'starred_messages', 'muted_topics']);
    expect(state).toMatchObject({ max_message_id: -1, starred_messages: [], muted_topics: [] });
  });

  it('answers the newest message the user received, their starred ids and their muted topics (zulip-terminal\'s fetch list)', async () => {
    expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [id('iago'), id('hamlet')] }));
    const denmark = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'Denmark' })).stream_id as number;
    const send = (topic: string) => sendToChannel('iago', 'Denmark', topic, 'x');
    const first = await send('a');
    const second = await send('b');
    expectSuccess(await api.as('iago').post('/api/v1/messages', { type: 'direct', to: [id('iago')], content: 'note to self' }));
    expectSuccess(await api.as('hamlet').post('/api/v1/messages/flags', { messages: [second, first], op: 'add', flag: 'starred' }));
    api.clock.set('2026-05-06T07:08:09.000Z');
    expectSuccess(await api.as('hamlet').post('/api/v1/user_topics', { stream_id: denmark, topic: 'a', visibility_policy: 1 }));
    expectSuccess(await api.as('hamlet').post('/api/v1/user_topics', { stream_id: denmark, topic: 'b', visibility_policy: 3 }));
    const state = await register('hamlet', ['realm', 'presence', 'subscription', 'message', 'starred_messages', 'update_message_flags', 'muted_topics', 'realm_user', 'user_settings', 'realm_emoji', 'custom_profile_fields']);
    expect(state.max_message_id).toBe(second);
    expect(state.starred_messages).toEqual([first, second]);
    expect(state.muted_topics).toEqual([['Denmark', 'a', Math.floor(Date.parse('2026-05-06T07:08:09.000Z') / 1000)]]);
    expect(state).toHaveProperty('unread_msgs');
    expectSuccess(await api.as('iago').delete(`/api/v1/streams/${denmark}`));
    expect((await register('hamlet', ['muted_topics'])).muted_topics).toEqual([]);
  });
});
