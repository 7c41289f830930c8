import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** ≈ zerver/tests/test_read_receipts.py: GET /messages/{message_id}/read_receipts and its settings. */
const MESSAGES = '/api/v1/messages';

describe('GET /messages/{message_id}/read_receipts', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, sendToChannel } = personaHelpers(() => api);
  const receipts = async (who: string, messageId: number) => expectSuccess(await api.as(who).get(`${MESSAGES}/${messageId}/read_receipts`)).user_ids as number[];
  const read = async (who: string, messageId: number) =>
    expectSuccess(await api.as(who).post(`${MESSAGES}/flags`, { messages: [messageId], op: 'add', flag: 'read' }));
  const unread = async (who: string, messageId: number) =>
    expectSuccess(await api.as(who).post(`${MESSAGES}/flags`, { messages: [messageId], op: 'remove', flag: 'read' }));
  const send = (who: string, content = 'hello') => sendToChannel(who, 'Denmark', 'receipts', content);
  const everyone = ['hamlet', 'cordelia', 'iago', 'shiva', 'desdemona'];

  beforeEach(async () => {
    expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: everyone.map(id) }));
  });

  it('lists who read the message, never the sender; marking unread takes a reader out', async () => {
    const messageId = await send('hamlet');
    expect(await receipts('hamlet', messageId)).toEqual([]);
    await read('cordelia', messageId);
    await read('iago', messageId);
    expect(await receipts('hamlet', messageId)).toEqual([id('cordelia'), id('iago')].sort((a, b) => a - b));
    expect(await receipts('cordelia', messageId)).toEqual([id('cordelia'), id('iago')].sort((a, b) => a - b));
    await unread('iago', messageId);
    expect(await receipts('hamlet', messageId)).toEqual([id('cordelia')]);
  });

  it('leaves out users who turned send_read_receipts off, and deactivated users', async () => {
    const messageId = await send('hamlet');
    for (const who of ['cordelia', 'iago', 'shiva']) await read(who, messageId);
    expectSuccess(await api.as('cordelia').patch('/api/v1/settings', { send_read_receipts: false }));
    expectSuccess(await api.as('desdemona').delete(`/api/v1/users/${id('shiva')}`));
    expect(await receipts('hamlet', messageId)).toEqual([id('iago')]);
    expectSuccess(await api.as('cordelia').patch('/api/v1/settings', { send_read_receipts: true }));
    expect(await receipts('hamlet', messageId)).toEqual([id('iago'), id('cordelia')].sort((a, b) => a - b));
  });

  it('leaves out users who muted the requester and users the requester muted', async () => {
    const messageId = await send('desdemona');
    for (const who of ['cordelia', 'iago', 'shiva']) await read(who, messageId);
    expectSuccess(await api.as('cordelia').post(`/api/v1/users/me/muted_users/${id('hamlet')}`));
    expectSuccess(await api.as('hamlet').post(`/api/v1/users/me/muted_users/${id('iago')}`));
    expect(await receipts('hamlet', messageId)).toEqual([id('shiva')]);
    expect(await receipts('shiva', messageId)).toEqual([id('cordelia'), id('iago'), id('shiva')].sort((a, b) => a - b));
  });

  it('includes bots that mark messages read', async () => {
    const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Reader', shortName: 'reader', ownerId: id('hamlet') }));
    api.credentials.set('reader', { userId: bot.userId, email: bot.email, apiKey: bot.apiKey });
    expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [bot.userId] }));
    const messageId = await send('hamlet');
    await read('reader', messageId);
    expect(await receipts('cordelia', messageId)).toEqual([bot.userId]);
  });

  it('works for direct messages', async () => {
    const messageId = expectSuccess(await api.as('hamlet').post(MESSAGES, { type: 'direct', to: [id('cordelia'), id('iago')], content: 'psst' })).id as number;
    await read('iago', messageId);
    expect(await receipts('hamlet', messageId)).toEqual([id('iago')]);
  });

  it('answers "Invalid message(s)" for messages the requester cannot read, before the organization setting', async () => {
    const dm = expectSuccess(await api.as('hamlet').post(MESSAGES, { type: 'direct', to: [id('cordelia')], content: 'psst' })).id as number;
    expectError(await api.as('iago').get(`${MESSAGES}/${dm}/read_receipts`), 'Invalid message(s)', { code: 'BAD_REQUEST' });
    expectError(await api.as('hamlet').get(`${MESSAGES}/999999/read_receipts`), 'Invalid message(s)', { code: 'BAD_REQUEST' });
    const channelMessage = await send('hamlet');
    expectError(await api.as('polonius').get(`${MESSAGES}/${channelMessage}/read_receipts`), 'Invalid message(s)');
    expectSuccess(await api.as('iago').patch('/api/v1/realm', { enable_read_receipts: false }));
    expectError(await api.as('iago').get(`${MESSAGES}/${dm}/read_receipts`), 'Invalid message(s)');
    expectError(await api.as('hamlet').get(`${MESSAGES}/abc/read_receipts`), 'Not Found', { status: 404 });
  });

  it('is refused while the organization has read receipts disabled; the setting is in register and realm events', async () => {
    const registered = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['realm'] }));
    expect(registered.realm_enable_read_receipts).toBe(true);
    const messageId = await send('hamlet');
    const answer = expectSuccess(await api.as('iago').patch('/api/v1/realm', { enable_read_receipts: false }));
    expect(answer.enable_read_receipts).toBe(false);
    expectError(await api.as('hamlet').get(`${MESSAGES}/${messageId}/read_receipts`), 'Read receipts are disabled in this organization.', { code: 'BAD_REQUEST', status: 400 });
    const { events } = expectSuccess(await api.as('hamlet').get('/api/v1/events', { queue_id: registered.queue_id, last_event_id: -1 }));
    expect(events).toEqual([{ id: 0, type: 'realm', op: 'update', property: 'enable_read_receipts', value: false }]);
    expect(expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['realm'] })).realm_enable_read_receipts).toBe(false);
    expectError(await api.as('hamlet').patch('/api/v1/realm', { enable_read_receipts: true }), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL', status: 400 });
    expectError(await api.as('iago').patch('/api/v1/realm', { enable_read_receipts: 'maybe' }), 'enable_read_receipts is not valid JSON');
  });
});
