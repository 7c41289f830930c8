import { ApiTestClient, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * The shapes of `update_message` events as zerver/openapi/zulip.yaml documents them
 * (do_update_message): a content edit carries no move fields, a move carries the move fields
 * only for what it changed, and an edit of content and topic is one event.
 */
describe('update_message event shapes', () => {
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

  const { id, queue, events, sendToChannel } = personaHelpers(() => api);
  const register = (who: string) => queue(who, ['update_message']);
  const send = (topic: string, content: string) => sendToChannel('hamlet', verona, topic, content);
  const MOVE_FIELDS = ['orig_subject', 'subject', 'topic_links', 'propagate_mode', 'new_stream_id'];
  const CONTENT_FIELDS = ['orig_content', 'orig_rendered_content', 'content', 'rendered_content', 'is_me_message'];

  it('a content-only edit of a channel message: content fields and the channel, no topic or move fields', async () => {
    const messageId = await send('content only', 'first');
    const queue = await register('cordelia');
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'second' }));
    const received = await events('cordelia', queue);
    expect(received).toHaveLength(1);
    const [event] = received;
    expect(Object.keys(event).sort()).toEqual(
      ['id', 'type', 'user_id', 'edit_timestamp', 'message_id', 'message_ids', 'rendering_only', 'flags', 'stream_id', 'stream_name', ...CONTENT_FIELDS].sort(),
    );
    expect(event).toMatchObject({ type: 'update_message', user_id: id('hamlet'), message_id: messageId, message_ids: [messageId], stream_id: verona, stream_name: 'Verona', orig_content: 'first', content: 'second', is_me_message: false });
    expect(event.rendered_content).toBe('<p>second</p>');
  });

  it('a content-only edit of a direct message names no channel', async () => {
    const { id: messageId } = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'psst' }));
    const queue = await register('cordelia');
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'psst!' }));
    const [event] = await events('cordelia', queue);
    expect(event).toMatchObject({ type: 'update_message', message_id: messageId, content: 'psst!' });
    for (const key of ['stream_id', 'stream_name', ...MOVE_FIELDS]) expect(event).not.toHaveProperty(key);
  });

  it('a topic move: propagate_mode, the channel, orig_subject, subject and topic_links; no content fields', async () => {
    const messageId = await send('old topic', 'text');
    const queue = await register('cordelia');
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { topic: 'new topic', propagate_mode: 'change_one' }));
    const [event] = await events('cordelia', queue);
    expect(event).toMatchObject({
      type: 'update_message', message_id: messageId, message_ids: [messageId], propagate_mode: 'change_one',
      stream_id: verona, stream_name: 'Verona', orig_subject: 'old topic', subject: 'new topic', topic_links: [],
    });
    expect(event).not.toHaveProperty('new_stream_id');
    for (const key of CONTENT_FIELDS) expect(event).not.toHaveProperty(key);
  });

  it('a channel move keeping the topic: new_stream_id and orig_subject, no subject or topic_links', async () => {
    const messageId = await send('travelling', 'text');
    const queue = await register('cordelia');
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${messageId}`, { stream_id: padua, propagate_mode: 'change_all' }));
    const [event] = await events('cordelia', queue);
    expect(event).toMatchObject({ type: 'update_message', message_id: messageId, propagate_mode: 'change_all', stream_id: verona, new_stream_id: padua, orig_subject: 'travelling' });
    for (const key of ['subject', 'topic_links', ...CONTENT_FIELDS]) expect(event).not.toHaveProperty(key);
  });

  it('an edit of content and topic is one event with both parts', async () => {
    const messageId = await send('both', 'before');
    const queue = await register('cordelia');
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'after', topic: 'both, renamed', propagate_mode: 'change_one' }));
    const received = (await events('cordelia', queue)).filter((e) => e.type === 'update_message');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      message_id: messageId, propagate_mode: 'change_one', stream_id: verona, orig_subject: 'both', subject: 'both, renamed',
      orig_content: 'before', content: 'after', rendered_content: '<p>after</p>',
    });
  });
});
