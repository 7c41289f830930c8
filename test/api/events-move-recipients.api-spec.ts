import { ApiTestClient, expectSuccess } from '../support';

/**
 * Who gets the update_message of a move: everyone with a row for one of the moved messages, not
 * only for the message the move names (do_update_message notifies the holders of every changed
 * message's UserMessage rows). Found by test/api/event-completeness.api-spec.ts: a message moved
 * from a private channel into a public one, where Notification Bot's notice followed it; a later
 * topic edit "from this message on" moved both, and subscribers of the public channel, who hold a
 * row for the notice only, never heard of the notice's new topic.
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';

describe('update_message reaches the holders of any moved message', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet'] })));
  afterAll(() => api.close());

  it('a topic edit moving a message and the notice after it reaches those who have only the notice', async () => {
    expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'vault' }], invite_only: true }));
    expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'square' }], principals: [api.user('iago').userId, api.user('hamlet').userId] }));
    const square = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'square' })).stream_id as number;
    const moved = expectSuccess(await api.as('iago').post('/api/v1/messages', { type: 'stream', to: 'vault', topic: 'beta', content: 'from the vault' })).id as number;
    const { queue_id } = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['message', 'update_message'] }));

    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${moved}`, { stream_id: square, propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: true }));
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${moved}`, { topic: 'gamma', propagate_mode: 'change_later', send_notification_to_old_thread: false, send_notification_to_new_thread: false }));

    const events = expectSuccess(await api.as('hamlet').get('/api/v1/events', { queue_id, last_event_id: -1, dont_block: true })).events as Record<string, any>[];
    const notice = events.find((e) => e.type === 'message')!.message;
    expect(notice).toMatchObject({ sender_email: expect.stringContaining('notification-bot'), stream_id: square, subject: 'beta' });
    const edits = events.filter((e) => e.type === 'update_message' && e.subject === 'gamma');
    expect(edits).toEqual([expect.objectContaining({ message_id: moved, message_ids: [moved, notice.id], orig_subject: 'beta' })]);
    const [fetched] = expectSuccess(await api.as('hamlet').get('/api/v1/messages', { message_ids: [notice.id] })).messages;
    expect(fetched.subject).toBe('gamma');
  });
});
