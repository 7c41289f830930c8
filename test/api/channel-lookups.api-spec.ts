import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * Small reads clients make: GET /streams/{id}/email_address, GET /users/{id}/subscriptions/{stream_id}
 * (zerver/views/streams.py) and POST /messages/render (render_message_backend).
 */
describe('channel lookups and message rendering', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, createChannel: createAs } = personaHelpers(() => api);
  const createChannel = (name: string, principals: string[], options: Record<string, unknown> = {}) => createAs('iago', name, { principals: principals.map(id), ...options });
  const bot = async (owner: string) =>
    (await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: `${owner} helper`, shortName: `${owner}-helper`, ownerId: id(owner) }))).userId as number;

  describe('GET /streams/{stream_id}/email_address', () => {
    it('answers "" (no email gateway here) for channels the caller can access, as the caller or a bot they administer', async () => {
      const denmark = await createChannel('Denmark', ['iago', 'hamlet']);
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${denmark}/email_address`))).toEqual({ result: 'success', msg: '', email: '' });
      expect(expectSuccess(await api.as('cordelia').get(`/api/v1/streams/${denmark}/email_address`)).email).toBe('');
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${denmark}/email_address`, { sender_id: id('hamlet') })).email).toBe('');
      const own = await bot('hamlet');
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${denmark}/email_address`, { sender_id: own })).email).toBe('');
      expect(expectSuccess(await api.as('iago').get(`/api/v1/streams/${denmark}/email_address`, { sender_id: own })).email).toBe('');
    });

    it('refuses channels the caller cannot access, and senders that are not bots they administer', async () => {
      const secret = await createChannel('Secret', ['iago'], { invite_only: true });
      const denmark = await createChannel('Denmark', ['iago', 'hamlet']);
      expectError(await api.as('hamlet').get(`/api/v1/streams/${secret}/email_address`), 'Invalid channel ID', { code: 'BAD_REQUEST' });
      expectError(await api.as('hamlet').get('/api/v1/streams/99999/email_address'), 'Invalid channel ID');
      expectError(await api.as('polonius').get(`/api/v1/streams/${denmark}/email_address`), 'Invalid channel ID');
      expectError(await api.as('hamlet').get(`/api/v1/streams/${denmark}/email_address`, { sender_id: id('cordelia') }), 'No such bot');
      expectError(await api.as('hamlet').get(`/api/v1/streams/${denmark}/email_address`, { sender_id: await bot('cordelia') }), 'Insufficient permission');
      expectError(await api.as('hamlet').get(`/api/v1/streams/${denmark}/email_address`, { sender_id: 'x' }), 'sender_id is not valid JSON');
    });
  });

  describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
    it('answers whether the user is subscribed', async () => {
      const denmark = await createChannel('Denmark', ['iago', 'hamlet']);
      expect(expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/subscriptions/${denmark}`))).toEqual({ result: 'success', msg: '', is_subscribed: true });
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/users/${id('cordelia')}/subscriptions/${denmark}`)).is_subscribed).toBe(false);
      // Metadata access suffices: a private channel the caller is in, about a user who is not.
      const secret = await createChannel('Secret', ['iago', 'hamlet'], { invite_only: true });
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/users/${id('cordelia')}/subscriptions/${secret}`)).is_subscribed).toBe(false);
    });

    it('refuses unknown, deactivated and bot users, and channels the caller cannot see', async () => {
      const denmark = await createChannel('Denmark', ['iago', 'hamlet']);
      const secret = await createChannel('Secret', ['iago'], { invite_only: true });
      expectError(await api.as('hamlet').get(`/api/v1/users/99999/subscriptions/${denmark}`), 'No such user', { code: 'BAD_REQUEST' });
      expectError(await api.as('hamlet').get(`/api/v1/users/${await bot('iago')}/subscriptions/${denmark}`), 'No such user');
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('cordelia')}`));
      expectError(await api.as('hamlet').get(`/api/v1/users/${id('cordelia')}/subscriptions/${denmark}`), 'No such user');
      expectError(await api.as('hamlet').get(`/api/v1/users/${id('iago')}/subscriptions/${secret}`), 'Invalid channel ID');
      expectError(await api.as('hamlet').get(`/api/v1/users/${id('iago')}/subscriptions/abc`), 'Not Found', { status: 404 });
    });
  });

  describe('POST /messages/render', () => {
    it('renders as a sent message is rendered, and stores nothing', async () => {
      await createChannel('Denmark', ['iago', 'hamlet', 'cordelia']);
      const content = 'Hi @**Cordelia Lear**, see #**Denmark** and **this** :smile:';
      await api.markEvents();
      const { rendered } = expectSuccess(await api.as('hamlet').post('/api/v1/messages/render', { content }));
      expect(await api.newEvents()).toEqual([]);
      const sent = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'stream', to: 'Denmark', topic: 'x', content })).id as number;
      expect(rendered).toBe(expectSuccess(await api.as('hamlet').get(`/api/v1/messages/${sent}`)).message.content);
      expect(rendered).toContain('user-mention');
      expect(expectSuccess(await api.as('hamlet').post('/api/v1/messages/render', { content: '' })).rendered).toBe('');
    });

    it('does not link channels the caller cannot see', async () => {
      await createChannel('Secret', ['iago'], { invite_only: true });
      const mine = expectSuccess(await api.as('iago').post('/api/v1/messages/render', { content: '#**Secret**' })).rendered as string;
      const theirs = expectSuccess(await api.as('hamlet').post('/api/v1/messages/render', { content: '#**Secret**' })).rendered as string;
      expect(mine).toContain('class="stream"');
      expect(theirs).not.toContain('class="stream"');
    });

    it('requires content', async () => {
      expectError(await api.as('hamlet').post('/api/v1/messages/render'), "Missing 'content' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    });
  });
});
