import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** ≈ zerver/tests/test_subs.py / test_message_delete.py delete_in_topic: POST /streams/{stream_id}/delete_topic. */
describe('POST /streams/{stream_id}/delete_topic', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, sendToChannel, createChannel: createAs } = personaHelpers(() => api);
  const createChannel = (name: string, principals: string[], options: Record<string, unknown> = {}) => createAs('iago', name, { principals: principals.map(id), ...options });
  const send = (who: string, to: string, topic: string, content = 'hello') => sendToChannel(who, to, topic, content);
  const exists = async (messageId: number) => (await api.as('iago').get(`/api/v1/messages/${messageId}`)).status === 200;
  const deleteTopic = (who: string, streamId: number, topicName?: string) =>
    api.as(who).post(`/api/v1/streams/${streamId}/delete_topic`, topicName === undefined ? {} : { topic_name: topicName });

  it('deletes every message of the topic (case-insensitively), and only that topic', async () => {
    const denmark = await createChannel('Denmark', ['iago', 'hamlet', 'cordelia']);
    const doomed = [await send('hamlet', 'Denmark', 'Plans'), await send('cordelia', 'Denmark', 'plans'), await send('iago', 'Denmark', 'PLANS')];
    const kept = [await send('hamlet', 'Denmark', 'other'), await send('hamlet', 'Denmark', 'plans later')];
    await api.markEvents();
    expect(expectSuccess(await deleteTopic('iago', denmark, 'plans'))).toEqual({ result: 'success', msg: '', complete: true });
    for (const messageId of doomed) expect(await exists(messageId)).toBe(false);
    for (const messageId of kept) expect(await exists(messageId)).toBe(true);
    const deleted = (await api.newEvents()).filter((e) => e.type === 'MessageDeleted').map((e) => (e.data as { messageId: number }).messageId);
    expect(deleted).toEqual([...doomed].reverse());
    const { topics } = expectSuccess(await api.as('hamlet').get(`/api/v1/users/me/${denmark}/topics`));
    expect((topics as { name: string }[]).map((t) => t.name).sort()).toEqual(['other', 'plans later']);
  });

  it('reads "general chat" as the empty topic, and answers complete for a topic with no messages', async () => {
    const denmark = await createChannel('Denmark', ['iago', 'hamlet']);
    const messageId = await send('hamlet', 'Denmark', '');
    expect(expectSuccess(await deleteTopic('iago', denmark, 'general chat')).complete).toBe(true);
    expect(await exists(messageId)).toBe(false);
    await api.markEvents();
    expect(expectSuccess(await deleteTopic('iago', denmark, 'nothing here')).complete).toBe(true);
    expect(await api.newEvents()).toEqual([]);
  });

  it('deletes regardless of the delete permission settings, for administrators only', async () => {
    const denmark = await createChannel('Denmark', ['iago', 'hamlet', 'desdemona', 'shiva']);
    expectSuccess(await api.as('desdemona').patch('/api/v1/realm', { can_delete_any_message_group: { new: (api.realmId - 1) * 8 + 1 } }));
    const messageId = await send('hamlet', 'Denmark', 'plans');
    await api.markEvents();
    for (const who of ['hamlet', 'shiva', 'polonius']) {
      expectError(await deleteTopic(who, denmark, 'plans'), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
    }
    expect(await api.newEvents()).toEqual([]);
    expectSuccess(await deleteTopic('iago', denmark, 'plans'));
    expect(await exists(messageId)).toBe(false);
  });

  it('deletes only what the administrator can read in a channel with protected history', async () => {
    const secret = await createChannel('Secret', ['iago', 'hamlet'], { invite_only: true, history_public_to_subscribers: false });
    const before = await send('hamlet', 'Secret', 'plans');
    expectSuccess(await api.as('iago').delete('/api/v1/users/me/subscriptions', { subscriptions: ['Secret'] }));
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Secret' }], principals: [id('desdemona')] }));
    const unseen = await send('hamlet', 'Secret', 'plans');
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Secret' }], principals: [id('iago')] }));
    const seen = await send('hamlet', 'Secret', 'plans');
    expectSuccess(await deleteTopic('iago', secret, 'plans'));
    const stillThere = async (messageId: number) => (await api.as('hamlet').get(`/api/v1/messages/${messageId}`)).status === 200;
    expect(await stillThere(before)).toBe(false);
    expect(await stillThere(unseen)).toBe(true);
    expect(await stillThere(seen)).toBe(false);
  });

  it('refuses channels the administrator cannot access and a missing topic_name, deleting nothing', async () => {
    expectSuccess(await api.as('desdemona').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Secret' }], invite_only: true }));
    const denmark = await createChannel('Denmark', ['iago', 'hamlet']);
    await send('hamlet', 'Denmark', 'plans');
    const hidden = expectSuccess(await api.as('desdemona').get('/api/v1/get_stream_id', { stream: 'Secret' })).stream_id as number;
    await api.markEvents();
    expectError(await deleteTopic('iago', hidden, 'plans'), 'Invalid channel ID', { code: 'BAD_REQUEST' });
    expectError(await deleteTopic('iago', 99999, 'plans'), 'Invalid channel ID');
    expectError(await deleteTopic('iago', denmark), "Missing 'topic_name' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    expect(await api.newEvents()).toEqual([]);
  });
});
