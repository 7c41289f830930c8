import { ApiTestClient, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * Who gets `update_message` (do_update_message): the users with a row for the message, with their
 * flags, and, in a channel whose history is public to subscribers, its subscribers without a row
 * (subscribed after the message was sent, or after it was moved in), with flags ["read"]: the
 * mobile app holds such messages (fetched from the channel's history) and otherwise keeps showing
 * them in their old topic. And who loses a message moved to another channel: every subscriber of
 * the old channel, past ones included, not subscribed to the new one. Found by the zulip-flutter
 * app-model check (test/e2e).
 */
describe('update_message reaches the subscribers of a channel with shared history', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'polonius'] })));
  afterEach(() => api.close());

  const { id, subscribe: subscribeAs, sendToChannel, queue, events: eventsOf, createChannel } = personaHelpers(() => api);
  const channel = (name: string, extra: Record<string, unknown> = {}) => createChannel('iago', name, { principals: [id('iago'), id('hamlet')], ...extra });
  const subscribe = (who: string, name: string) => subscribeAs('iago', name, [who]);
  const send = (to: number, topic: string, content: string) => sendToChannel('hamlet', to, topic, content);
  const register = (who: string) => queue(who, ['update_message', 'delete_message']);
  const events = async (who: string, queueId: string) =>
    (await eventsOf(who, queueId)).map(({ type, message_ids, flags, subject }) => ({ type, message_ids, ...(flags ? { flags } : {}), ...(subject ? { subject } : {}) }));

  it('a late subscriber of a public channel gets the content edit and the topic move, flagged read; the row holders their own flags', async () => {
    const verona = await channel('Verona');
    const messageId = await send(verona, 'plans', 'first');
    await subscribe('cordelia', 'Verona');
    const [cordelia, hamlet] = [await register('cordelia'), await register('hamlet')];
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'second' }));
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { topic: 'new plans', propagate_mode: 'change_all' }));
    expect(await events('cordelia', cordelia)).toEqual([
      { type: 'update_message', message_ids: [messageId], flags: ['read'] },
      { type: 'update_message', message_ids: [messageId], flags: ['read'], subject: 'new plans' },
    ]);
    const own = expectSuccess(await api.as('hamlet').get(`/api/v1/messages/${messageId}`)).message.flags as string[];
    expect(await events('hamlet', hamlet)).toEqual([
      { type: 'update_message', message_ids: [messageId], flags: own },
      { type: 'update_message', message_ids: [messageId], flags: own, subject: 'new plans' },
    ]);
  });

  it('a late subscriber of a private channel with protected history gets nothing (no access to the message)', async () => {
    const secret = await channel('Secret', { invite_only: true, history_public_to_subscribers: false });
    const messageId = await send(secret, 'plots', 'first');
    await subscribe('cordelia', 'Secret');
    const cordelia = await register('cordelia');
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'second' }));
    expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { topic: 'schemes', propagate_mode: 'change_all' }));
    expect(await events('cordelia', cordelia)).toEqual([]);
  });

  it('a move to a private channel: a past subscriber of the old channel (her own message) loses it, as a current one does: delete_message, and GET /messages no longer lists it', async () => {
    const verona = await channel('Verona');
    const secret = await channel('Secret', { invite_only: true });
    await subscribe('cordelia', 'Verona');
    const messageId = expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: verona, topic: 'plans', content: 'mine' })).id as number;
    expectSuccess(await api.as('cordelia').delete('/api/v1/users/me/subscriptions', { subscriptions: ['Verona'] }));
    const listed = async () => (expectSuccess(await api.as('cordelia').get('/api/v1/messages', { narrow: '[]', anchor: 'newest', num_before: 10, num_after: 0 })).messages as { id: number }[]).map((m) => m.id);
    expect(await listed()).toEqual([messageId]);
    const cordelia = await register('cordelia');
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${messageId}`, { stream_id: secret, propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
    expect(await events('cordelia', cordelia)).toEqual([{ type: 'delete_message', message_ids: [messageId] }]);
    expect(await listed()).toEqual([]);
    expect((await api.as('cordelia').get(`/api/v1/messages/${messageId}`)).status).toBe(400);
  });

  it('a move to another public channel: the new channel\'s subscribers without a row get it, but not a guest subscribed to the new channel only', async () => {
    const verona = await channel('Verona');
    const padua = await channel('Padua');
    const messageId = await send(verona, 'plans', 'first');
    await subscribe('cordelia', 'Padua');
    await subscribe('polonius', 'Padua');
    const [cordelia, polonius] = [await register('cordelia'), await register('polonius')];
    expectSuccess(await api.as('iago').patch(`/api/v1/messages/${messageId}`, { stream_id: padua, topic: 'moved plans', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
    expect(await events('cordelia', cordelia)).toEqual([{ type: 'update_message', message_ids: [messageId], flags: ['read'], subject: 'moved plans' }]);
    expect(await events('polonius', polonius)).toEqual([]);
  });
});
