import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** DELETE /messages/{id} through the whole app (≈ zerver/tests/test_message_delete.py). */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const MESSAGES = '/api/v1/messages';

describe('DELETE /messages/{message_id}', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, sendToChannel } = personaHelpers(() => api);
  const send = (who: string, content = 'hello') => sendToChannel(who, 'Denmark', 'greetings', content);
  beforeEach(async () => {
    expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [id('hamlet'), id('cordelia'), id('iago')] }));
  });

  it('the sender deletes their message; it is gone for everyone, with its rows', async () => {
    const messageId = await send('hamlet');
    expect(expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${messageId}`))).toEqual({ result: 'success', msg: '' });
    expectError(await api.as('cordelia').get(`${MESSAGES}/${messageId}`), 'Invalid message(s)');
    const { messages } = expectSuccess(await api.as('cordelia').get(MESSAGES, { anchor: 'newest', num_before: 10, num_after: 0 }));
    expect(messages.map((m: { id: number }) => m.id)).not.toContain(messageId);
    expectError(await api.as('hamlet').delete(`${MESSAGES}/${messageId}`), 'Invalid message(s)');
  });

  it('administrators delete any message; others may not', async () => {
    const messageId = await send('hamlet');
    await api.markEvents();
    expectError(await api.as('cordelia').delete(`${MESSAGES}/${messageId}`), "You don't have permission to delete this message");
    expect(await api.newEvents()).toEqual([]);
    expectSuccess(await api.as('iago').delete(`${MESSAGES}/${messageId}`));
    expect((await api.newEvents()).map((e) => e.type)).toEqual(['MessageDeleted']);
  });

  it("senders delete within the organization's limit (600 s by default), which administrators set", async () => {
    const old = await send('hamlet');
    api.clock.advance(601_000);
    expectError(await api.as('hamlet').delete(`${MESSAGES}/${old}`), 'The time limit for deleting this message has passed');
    const fresh = await send('hamlet');
    api.clock.advance(599_000);
    expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${fresh}`));

    expectError(await api.as('hamlet').patch('/api/v1/realm', { message_content_delete_limit_seconds: JSON.stringify('unlimited') }), 'Must be an organization administrator');
    expect(expectSuccess(await api.as('iago').patch('/api/v1/realm', { message_content_delete_limit_seconds: JSON.stringify('unlimited') }))).toMatchObject({ message_content_delete_limit_seconds: null });
    expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${old}`));
    expectError(await api.as('iago').patch('/api/v1/realm', { message_content_delete_limit_seconds: 0 }), "Bad value for 'message_content_delete_limit_seconds': 0");
  });

  it("the organization's delete permission groups decide who deletes", async () => {
    const { user_groups } = expectSuccess(await api.as('iago').get('/api/v1/user_groups'));
    const group = (name: string) => user_groups.find((g: { name: string }) => g.name === name).id;
    const own = await send('hamlet');
    expectSuccess(await api.as('iago').patch('/api/v1/realm', { can_delete_own_message_group: JSON.stringify({ new: group('role:nobody') }) }));
    expectError(await api.as('hamlet').delete(`${MESSAGES}/${own}`), "You don't have permission to delete this message");

    expectSuccess(await api.as('iago').patch('/api/v1/realm', { can_delete_any_message_group: JSON.stringify({ new: group('role:moderators') }) }));
    expectSuccess(await api.as('shiva').delete(`${MESSAGES}/${own}`));
    const { realm_can_delete_any_message_group, realm_message_content_delete_limit_seconds } = expectSuccess(
      await api.as('cordelia').post('/api/v1/register', { fetch_event_types: JSON.stringify(['realm']) }),
    );
    expect([realm_can_delete_any_message_group, realm_message_content_delete_limit_seconds]).toEqual([group('role:moderators'), 600]);
  });

  it('a bot\'s owner deletes the bot\'s messages; a direct message by its sender', async () => {
    const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Helper', shortName: 'helper', ownerId: id('hamlet') }));
    expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }], principals: [bot.userId] }));
    const sent = expectSuccess(await api.http.post(MESSAGES).auth(bot.email, bot.apiKey).type('form').send({ type: 'stream', to: 'Denmark', topic: 'greetings', content: 'beep' }));
    expectError(await api.as('cordelia').delete(`${MESSAGES}/${sent.id}`), "You don't have permission to delete this message");
    expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${sent.id}`));
    const dm = expectSuccess(await api.as('cordelia').post(MESSAGES, { type: 'direct', to: JSON.stringify([id('hamlet')]), content: 'psst' })).id;
    expectError(await api.as('hamlet').delete(`${MESSAGES}/${dm}`), "You don't have permission to delete this message");
    expectSuccess(await api.as('cordelia').delete(`${MESSAGES}/${dm}`));
    expectError(await api.as('hamlet').get(`${MESSAGES}/${dm}`), 'Invalid message(s)');
  });

  it('a deleted message leaves unread counts and the history of the stream intact for replay', async () => {
    const messageId = await send('hamlet');
    expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${messageId}`, { content: 'edited' }));
    expectSuccess(await api.as('hamlet').delete(`${MESSAGES}/${messageId}`));
    const { unread_msgs } = expectSuccess(await api.as('cordelia').post('/api/v1/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) }));
    expect(unread_msgs.count).toBe(0);
    const { events } = await api.eventStore.readStream(`message-${messageId}`);
    expect(events.map((e) => e.type).filter((t) => t !== 'UserTopicVisibilityPolicyChanged')).toEqual(['MessageSent', 'MessageContentEdited', 'MessageDeleted']);
  });
});
