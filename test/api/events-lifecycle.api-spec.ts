import { ApiTestClient, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** Events of message edits, moves and deletions, scheduled messages and uploads (issues #5, #7, #9 as mapped by #10). */
describe('events of edited, moved, deleted and scheduled messages, and uploads', () => {
  let api: ApiTestClient;
  let verona = 0;
  let padua = 0;
  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia'] });
    for (const name of ['Verona', 'Padua']) {
      expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }], principals: [id('hamlet'), id('cordelia')] }));
    }
    verona = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'Verona' })).stream_id;
    padua = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'Padua' })).stream_id;
  });
  afterAll(() => api.close());

  const { id, queue: register, events, sendToChannel } = personaHelpers(() => api);
  const send = (topic: string, content: string) => sendToChannel('hamlet', verona, topic, content);

  it('an edit of content sends update_message with each recipient\'s flags', async () => {
    const messageId = await send('edits', 'first draft');
    const queue = await register('cordelia', ['update_message']);
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'final @**Cordelia Lear**' }));
    const [event] = await events('cordelia', queue);
    expect(event).toMatchObject({
      type: 'update_message', user_id: id('hamlet'), message_id: messageId, message_ids: [messageId], rendering_only: false,
      orig_content: 'first draft', content: 'final @**Cordelia Lear**', stream_id: verona,
    });
    expect(event.flags).toEqual(expectSuccess(await api.as('cordelia').get(`/api/v1/messages/${messageId}`)).message.flags);
  });

  it('a move sends update_message with the old and new channel and topic', async () => {
    const messageId = await send('to move', 'moving on');
    const queue = await register('cordelia', ['update_message']);
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { stream_id: padua, topic: 'moved', propagate_mode: 'change_all' }));
    const [event] = await events('cordelia', queue);
    expect(event).toMatchObject({
      type: 'update_message', message_id: messageId, message_ids: [messageId], propagate_mode: 'change_all',
      stream_id: verona, stream_name: 'Verona', new_stream_id: padua, orig_subject: 'to move', subject: 'moved',
    });
  });

  it('a deletion sends delete_message', async () => {
    const messageId = await send('to delete', 'soon gone');
    const queue = await register('cordelia', ['delete_message']);
    expectSuccess(await api.as('iago').delete(`/api/v1/messages/${messageId}`));
    expect(await events('cordelia', queue)).toEqual([
      { id: 0, type: 'delete_message', message_type: 'stream', message_ids: [messageId], stream_id: verona, topic: 'to delete' },
    ]);
  });

  it('a deleted direct message is announced to its recipients', async () => {
    const { id: messageId } = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'oops' }));
    const queue = await register('cordelia', ['delete_message']);
    expectSuccess(await api.as('hamlet').delete(`/api/v1/messages/${messageId}`));
    expect(await events('cordelia', queue)).toEqual([{ id: 0, type: 'delete_message', message_type: 'private', message_ids: [messageId] }]);
  });

  it('scheduled messages: add, update and remove, and the register section', async () => {
    const queue = await register('hamlet', ['scheduled_messages']);
    const at = Math.floor(Date.now() / 1000) + 3600;
    const { scheduled_message_id } = expectSuccess(
      await api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'channel', to: verona, topic: 'later', content: 'from the past', scheduled_delivery_timestamp: at }),
    );
    expectSuccess(await api.as('hamlet').patch(`/api/v1/scheduled_messages/${scheduled_message_id}`, { content: 'edited' }));
    const state = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['scheduled_messages'] }));
    expect(state.scheduled_messages).toEqual([expect.objectContaining({ scheduled_message_id, content: 'edited' })]);
    expectSuccess(await api.as('hamlet').delete(`/api/v1/scheduled_messages/${scheduled_message_id}`));
    expect(await events('hamlet', queue)).toEqual([
      { id: 0, type: 'scheduled_messages', op: 'add', scheduled_messages: [expect.objectContaining({ scheduled_message_id, type: 'stream', to: verona, topic: 'later', scheduled_delivery_timestamp: at, failed: false })] },
      { id: 1, type: 'scheduled_messages', op: 'update', scheduled_message: expect.objectContaining({ scheduled_message_id, content: 'edited' }) },
      { id: 2, type: 'scheduled_messages', op: 'remove', scheduled_message_id },
    ]);
  });

  it('an upload sends attachment add with the used upload space', async () => {
    const queue = await register('hamlet', ['attachment']);
    const { email, apiKey } = api.user('hamlet');
    expectSuccess(await api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file1', Buffer.from('zulip!'), 'zulip.txt'));
    const [event] = await events('hamlet', queue);
    expect(event).toMatchObject({ type: 'attachment', op: 'add', attachment: { name: 'zulip.txt', size: 6 }, upload_space_used: expect.any(Number) });
  });
});
