import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';

/**
 * Someone who left a public channel keeps their rows of its messages (GET /messages shows them),
 * and Zulip keeps telling them about those messages: event_recipient_ids_for_action_on_messages
 * sends a public channel's events to its subscribers and to every non-guest holding a row. So
 * edits, moves and deletions of those messages reach their queues (found by
 * test/api/event-completeness.api-spec.ts); a guest who left loses access, and hears nothing.
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';

describe('message events for those who left a public channel', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['iago', 'cordelia', 'polonius'] })));
  afterAll(() => api.close());
  const { queue, events: eventsOf } = personaHelpers(() => api);

  it('edits, moves and the deletion reach a member who left; not a guest who left', async () => {
    const ids = ['iago', 'cordelia', 'polonius'].map((who) => api.user(who).userId);
    expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'plaza' }], principals: ids }));
    const message = expectSuccess(await api.as('iago').post('/api/v1/messages', { type: 'stream', to: 'plaza', topic: 'beta', content: 'hello' })).id as number;
    const queues: Record<string, string> = {};
    for (const who of ['cordelia', 'polonius']) {
      queues[who] = await queue(who, ['update_message', 'delete_message']);
      expectSuccess(await api.as(who).delete(SUBSCRIPTIONS, { subscriptions: ['plaza'] }));
    }

    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${message}`, { content: 'hello again' }));
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${message}`, { topic: 'gamma', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
    const [fetched] = expectSuccess(await api.as('cordelia').get('/api/v1/messages', { message_ids: [message] })).messages;
    expect(fetched).toMatchObject({ content: '<p>hello again</p>', subject: 'gamma' });
    expectSuccess(await api.as('iago').delete(`/api/v1/messages/${message}`));

    const events = async (who: string) =>
      (await eventsOf(who, queues[who])).map((e) => [e.type, e.message_id ?? e.message_ids, e.rendered_content ?? e.subject ?? null]);
    expect(await events('cordelia')).toEqual([
      ['update_message', message, '<p>hello again</p>'],
      ['update_message', message, 'gamma'],
      ['delete_message', [message], null],
    ]);
    expect(await events('polonius')).toEqual([]);
  });
});
