import { CommandBus } from '@nestjs/cqrs';
import { ChangeBotOwnerCommand, RegenerateApiKeyCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** ≈ zerver/tests/test_users.py for the endpoints of users and bots. */
describe('users', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());
  const { queue, events } = personaHelpers(() => api);

  describe('GET /users, /users/me, /users/{id}, /users/{email}', () => {
    it('lists every account in Zulip\'s shape, real addresses visible to everyone by default (email_address_visibility)', async () => {
      const { members } = expectSuccess(await api.as('hamlet').get('/api/v1/users'));
      expect(members).toHaveLength(6);
      const iago = members.find((m: { email: string }) => m.email === 'iago@acme.test');
      expect(iago).toEqual({
        email: 'iago@acme.test', user_id: api.user('iago').userId, avatar_version: 1, is_admin: true, is_owner: false,
        is_guest: false, is_billing_admin: false, role: 200, is_bot: false, full_name: 'Iago', timezone: '', is_active: true,
        date_joined: '2026-01-01T00:00+00:00', delivery_email: 'iago@acme.test', is_imported_stub: false, avatar_url: `/avatar/${api.user('iago').userId}`,
      });
      const asAdmin = expectSuccess(await api.as('iago').get('/api/v1/users')).members;
      expect(asAdmin.find((m: { email: string }) => m.email === 'hamlet@acme.test').delivery_email).toBe('hamlet@acme.test');
      expect(members.map((m: { role: number }) => m.role).sort()).toEqual([100, 200, 300, 400, 400, 600]);
    });

    it('returns the caller with their own address', async () => {
      const body = expectSuccess(await api.as('polonius').get('/api/v1/users/me'));
      expect(body).toMatchObject({ user_id: api.user('polonius').userId, email: 'polonius@acme.test', delivery_email: 'polonius@acme.test', is_guest: true, role: 600 });
    });

    it('answers the caller as they are now, after changes to their account (the answer is serialized once per account state)', async () => {
      const before = expectSuccess(await api.as('polonius').get('/api/v1/users/me'));
      expect(expectSuccess(await api.as('polonius').get('/api/v1/users/me'))).toEqual(before);
      expectSuccess(await api.as('polonius').patch('/api/v1/settings', { full_name: 'Lord Polonius' }));
      const renamed = expectSuccess(await api.as('polonius').get('/api/v1/users/me', { bogus: '1' }));
      expect(renamed).toEqual({ ...before, full_name: 'Lord Polonius', ignored_parameters_unsupported: ['bogus'] });
      expectSuccess(await api.as('polonius').patch('/api/v1/settings', { full_name: before.full_name }));
      expect(expectSuccess(await api.as('polonius').get('/api/v1/users/me'))).toEqual(before);
    });

    it('finds one user by id or by email, and says "No such user" otherwise', async () => {
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/users/${api.user('cordelia').userId}`)).user.full_name).toBe('Cordelia Lear');
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/CORDELIA@acme.test')).user.user_id).toBe(api.user('cordelia').userId);
      expectError(await api.as('hamlet').get('/api/v1/users/99999'), 'No such user');
      expectError(await api.as('hamlet').get('/api/v1/users/ghost@acme.test'), 'No such user');
    });
  });

  describe('POST /users', () => {
    it('lets an administrator create a member who can then log in', async () => {
      const { user_id } = expectSuccess(await api.as('iago').post('/api/v1/users', { email: 'newbie@acme.test', password: 'long-enough', full_name: 'New Bie' }));
      expect(expectSuccess(await api.as('iago').get(`/api/v1/users/${user_id}`)).user).toMatchObject({ full_name: 'New Bie', role: 400, is_active: true });
      const login = expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'newbie@acme.test', password: 'long-enough' }));
      expect(login.user_id).toBe(user_id);
    });

    it('refuses a member with UNAUTHORIZED_PRINCIPAL and stores nothing', async () => {
      expectError(await api.as('hamlet').post('/api/v1/users', { email: 'x@acme.test', password: 'long-enough', full_name: 'X Y' }), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
      expect(await api.newEvents()).toEqual([]);
    });

    it.each([
      [{ email: 'hamlet@acme.test', password: 'long-enough', full_name: 'Dup' }, "Email 'hamlet@acme.test' already in use"],
      [{ email: 'not-an-email', password: 'long-enough', full_name: 'Bad' }, 'Bad name or username'],
      [{ email: 'a@acme.test', password: 'long-enough', full_name: 'A' }, 'Name too short!'],
      [{ email: 'a@acme.test', password: 'long-enough', full_name: 'Evil @ name' }, 'Invalid characters in name!'],
      [{ email: 'a@acme.test', password: 'short', full_name: 'Fine Name' }, 'The password is too weak.'],
    ])('refuses %j with "%s" and stores nothing', async (params, message) => {
      expectError(await api.as('iago').post('/api/v1/users', params), message);
      expect(await api.newEvents()).toEqual([]);
    });
  });

  describe('PATCH /users/{id}', () => {
    it('changes the name and role of a user', async () => {
      const id = api.user('hamlet').userId;
      expectSuccess(await api.as('iago').patch(`/api/v1/users/${id}`, { full_name: 'Prince Hamlet', role: 300 }));
      expect(expectSuccess(await api.as('iago').get(`/api/v1/users/${id}`)).user).toMatchObject({ full_name: 'Prince Hamlet', role: 300 });
    });

    it('lets only owners grant the owner role', async () => {
      const id = api.user('hamlet').userId;
      expectError(await api.as('iago').patch(`/api/v1/users/${id}`, { role: 100 }), 'Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });
      expectSuccess(await api.as('desdemona').patch(`/api/v1/users/${id}`, { role: 100 }));
    });

    it.each([
      [{ role: 250 }, 'Invalid role'],
      [{ role: 'admin' }, 'role is not valid JSON'],
      [{}, 'No new data supplied'],
      [{ full_name: 'x' }, 'Name too short!'],
    ])('refuses %j with "%s"', async (params, message) => {
      expectError(await api.as('iago').patch(`/api/v1/users/${api.user('hamlet').userId}`, params), message);
      expect(await api.newEvents()).toEqual([]);
    });

    it('works on bots: an administrator changes a bot\'s role and name; members may not', async () => {
      const bot = expectSuccess(await api.as('hamlet').post('/api/v1/bots', { full_name: 'Role Bot', short_name: 'rolebot' }));
      expectSuccess(await api.as('iago').patch(`/api/v1/users/${bot.user_id}`, { role: 300, full_name: 'Moderating Bot' }));
      expect(expectSuccess(await api.as('iago').get(`/api/v1/users/${bot.user_id}`)).user).toMatchObject({ is_bot: true, role: 300, full_name: 'Moderating Bot' });
      expectError(await api.as('hamlet').patch(`/api/v1/users/${bot.user_id}`, { role: 400 }), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
      expectError(await api.as('iago').patch(`/api/v1/users/${bot.user_id}`, { role: 100 }), 'Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });
      expectSuccess(await api.as('desdemona').patch(`/api/v1/users/${bot.user_id}`, { role: 100 }));
      expect(expectSuccess(await api.as('iago').get(`/api/v1/users/${bot.user_id}`)).user.role).toBe(100);
    });

    it('treats a non-numeric id as an unknown route', async () => {
      expectError(await api.as('iago').patch('/api/v1/users/abc', { full_name: 'Whoever' }), 'Not Found', { status: 404 });
    });
  });

  describe('DELETE /users/{id} and reactivation', () => {
    it('deactivates a user, who can no longer authenticate, and reactivates them', async () => {
      const id = api.user('cordelia').userId;
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id}`));
      expectError(await api.as('cordelia').get('/api/v1/users/me'), 'Account is deactivated', { status: 401 });
      expect(expectSuccess(await api.as('iago').get(`/api/v1/users/${id}`)).user.is_active).toBe(false);
      expectSuccess(await api.as('iago').post(`/api/v1/users/${id}/reactivate`));
      expectSuccess(await api.as('cordelia').get('/api/v1/users/me'));
    });

    it('refuses to deactivate the only owner', async () => {
      expectError(await api.as('iago').delete(`/api/v1/users/${api.user('desdemona').userId}`), 'Must be an organization owner');
      expectError(await api.as('desdemona').delete(`/api/v1/users/${api.user('desdemona').userId}`), 'Cannot deactivate the only organization owner');
    });

    it('lets a user deactivate themselves, except the last owner', async () => {
      expectSuccess(await api.as('hamlet').delete('/api/v1/users/me'));
      expectError(await api.as('hamlet').get('/api/v1/users/me'), 'Account is deactivated', { status: 401 });
      const body = expectError(await api.as('desdemona').delete('/api/v1/users/me'), 'Cannot deactivate the only organization owner.', { code: 'CANNOT_DEACTIVATE_LAST_USER' });
      expect(body).toMatchObject({ is_last_owner: true, entity: 'organization owner' });
    });
  });

  describe('bots', () => {
    it('creates a bot whose key works, and lists it for its owner only', async () => {
      const created = expectSuccess(await api.as('hamlet').postMultipart('/api/v1/bots', { full_name: 'Deploy Bot', short_name: 'deploy' }));
      expect(created.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
      const { bots } = expectSuccess(await api.as('hamlet').get('/api/v1/bots'));
      expect(bots).toEqual([expect.objectContaining({ user_id: created.user_id, full_name: 'Deploy Bot', api_key: created.api_key, bot_type: 1 })]);
      expect(expectSuccess(await api.as('cordelia').get('/api/v1/bots')).bots).toEqual([]);
      const botEmail = bots[0].username;
      expect(botEmail).toMatch(/^deploy-bot@/);
      const me = expectSuccess(await api.http.get('/api/v1/users/me').auth(botEmail, created.api_key));
      expect(me).toMatchObject({ is_bot: true, bot_owner_id: api.user('hamlet').userId, bot_type: 1 });
    });

    it('sends realm_bot events to the owner and the administrators: add, update, and delete/add when the owner changes', async () => {
      const register = (who: string) => queue(who, ['realm_bot']);
      const [hamletQ, iagoQ, cordeliaQ] = [await register('hamlet'), await register('iago'), await register('cordelia')];
      const created = expectSuccess(await api.as('hamlet').post('/api/v1/bots', { full_name: 'Event Bot', short_name: 'eventbot' }));
      expectSuccess(await api.as('iago').patch(`/api/v1/users/${created.user_id}`, { full_name: 'Renamed Bot' }));
      const bus = api.app.get(CommandBus);
      await bus.execute(new RegenerateApiKeyCommand({ actor: operatorActor(api.realmId) }, created.user_id));
      // Mappers read the read models as they are when they run: let this event reach the queues before the owner changes.
      for (let i = 0; i < 100 && (await events('hamlet', hamletQ)).length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      await bus.execute(new ChangeBotOwnerCommand({ actor: operatorActor(api.realmId) }, created.user_id, api.user('cordelia').userId));
      const added = { type: 'realm_bot', op: 'add', bot: expect.objectContaining({ user_id: created.user_id, full_name: 'Event Bot', api_key: created.api_key, owner_id: api.user('hamlet').userId, is_active: true, services: [] }) };
      const renamed = { type: 'realm_bot', op: 'update', bot: { user_id: created.user_id, full_name: 'Renamed Bot' } };
      const newKey = { type: 'realm_bot', op: 'update', bot: { user_id: created.user_id, api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) } };
      const owner = { type: 'realm_bot', op: 'update', bot: { user_id: created.user_id, owner_id: api.user('cordelia').userId } };
      expect(await events('hamlet', hamletQ)).toEqual([added, renamed, newKey, { type: 'realm_bot', op: 'delete', bot: { user_id: created.user_id } }].map((e, i) => ({ id: i, ...e })));
      expect(await events('iago', iagoQ)).toEqual([added, renamed, newKey, owner].map((e, i) => ({ id: i, ...e })));
      const cordelias = await events('cordelia', cordeliaQ);
      expect(cordelias).toEqual([
        { id: 0, type: 'realm_bot', op: 'add', bot: expect.objectContaining({ user_id: created.user_id, full_name: 'Renamed Bot', owner_id: api.user('cordelia').userId }) },
        { id: 1, ...owner },
      ]);
      // What the events built agrees with a fresh register.
      const state = expectSuccess(await api.as('cordelia').post('/api/v1/register', { fetch_event_types: ['realm_bot'] }));
      expect(state.realm_bots).toEqual([expect.objectContaining({ user_id: created.user_id, full_name: 'Renamed Bot', api_key: cordelias[0].bot.api_key })]);
    });

    it.each([
      ['polonius', { full_name: 'Guest Bot', short_name: 'gb' }, 'Not allowed for guest users'],
      ['hamlet', { full_name: 'Odd Bot', short_name: 'odd', bot_type: 9 }, 'Invalid bot type'],
      ['hamlet', { full_name: 'Bad Bot', short_name: 'bad name!' }, 'Bad name or username'],
    ])('refuses %s creating %j with "%s"', async (who, params, message) => {
      expectError(await api.as(who).post('/api/v1/bots', params), message);
      expect(await api.newEvents()).toEqual([]);
    });
  });

  describe('renames on the user\'s own stream, user_profile-<userId> (issue 38, docs/consistency-boundaries.md)', () => {
    const renames = async () => (await api.newEvents()).filter((e) => e.type === 'UserFullNameChanged').map((e) => ({ stream: e.streamId, ...e.data }));

    it('a human\'s rename, by themselves or an administrator, goes to their own stream, not the directory', async () => {
      const hamlet = api.user('hamlet').userId;
      await api.markEvents();
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { full_name: 'Prince Hamlet' }));
      expectSuccess(await api.as('iago').patch(`/api/v1/users/${hamlet}`, { full_name: 'Hamlet of Denmark' }));
      expect(await renames()).toEqual([
        expect.objectContaining({ stream: `user_profile-${hamlet}`, userId: hamlet, oldName: 'King Hamlet', newName: 'Prince Hamlet', actorId: hamlet }),
        expect.objectContaining({ stream: `user_profile-${hamlet}`, userId: hamlet, oldName: 'Prince Hamlet', newName: 'Hamlet of Denmark', actorId: api.user('iago').userId }),
      ]);
      expect(expectSuccess(await api.as('cordelia').get(`/api/v1/users/${hamlet}`)).user.full_name).toBe('Hamlet of Denmark');
      // Who may rename whom is still the directory's: a member may not rename another.
      expectError(await api.as('cordelia').patch(`/api/v1/users/${hamlet}`, { full_name: 'Not Yours' }), 'Must be an organization administrator');
    });

    it('a log with renames on the directory (before this stream existed) keeps working: the next rename starts from the last one there', async () => {
      const hamlet = api.user('hamlet').userId;
      await api.givenEvents(`users-${api.realmId}`, [
        { type: 'UserFullNameChanged', data: { realmId: api.realmId, userId: hamlet, oldName: 'King Hamlet', newName: 'Old Hamlet', actorId: hamlet, at: '2026-01-01T00:00:00.000Z' } },
      ]);
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).full_name).toBe('Old Hamlet');
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { full_name: 'New Hamlet' }));
      expect(await renames()).toEqual([expect.objectContaining({ stream: `user_profile-${hamlet}`, oldName: 'Old Hamlet', newName: 'New Hamlet' })]);
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).full_name).toBe('New Hamlet');
    });

    it('a bot may not take a human\'s current name (from the read models), and may take a name the human left', async () => {
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { full_name: 'Prince Hamlet' }));
      expectError(await api.as('cordelia').post('/api/v1/bots', { full_name: 'Prince Hamlet', short_name: 'prince' }), 'Name is already in use.');
      const bot = expectSuccess(await api.as('cordelia').post('/api/v1/bots', { full_name: 'King Hamlet', short_name: 'king' }));
      expectError(await api.as('iago').patch(`/api/v1/users/${bot.user_id}`, { full_name: 'Prince Hamlet' }), 'Name is already in use.');
      // A bot keeps its name on the directory: its renames are still decided there.
      await api.markEvents();
      expectSuccess(await api.as('iago').patch(`/api/v1/users/${bot.user_id}`, { full_name: 'Royal Bot' }));
      expect(await renames()).toEqual([expect.objectContaining({ stream: `users-${api.realmId}`, userId: bot.user_id, newName: 'Royal Bot' })]);
    });
  });
});

/**
 * A development server requires nothing of a password but that it is not empty
 * (zproject/dev_settings.py: PASSWORD_MIN_LENGTH = 0, PASSWORD_MIN_GUESSES = 0), and says so in
 * /register; elsewhere 6 characters (and Zulip's 10,000 guesses, not checked here).
 */
describe('password strength by environment', () => {
  const register = async (api: ApiTestClient) => expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['realm'] }));

  it('in development: POST /users and PATCH /settings take any non-empty password', async () => {
    const api = await ApiTestClient.start({ personas: ['iago', 'hamlet'], config: { env: 'development', devBootstrap: false } });
    try {
      const { user_id } = expectSuccess(await api.as('iago').post('/api/v1/users', { email: 'dev@acme.test', password: 'abc', full_name: 'Dev User' }));
      expect(expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'dev@acme.test', password: 'abc' })).user_id).toBe(user_id);
      await api.markEvents();
      expectError(await api.as('iago').post('/api/v1/users', { email: 'empty@acme.test', password: '', full_name: 'Empty Password' }), 'The password is too weak.');
      expect(await api.newEvents()).toEqual([]);
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { old_password: 'hamlet-password', new_password: 'x' }));
      expect(await register(api)).toMatchObject({ password_min_length: 0, password_min_guesses: 0 });
    } finally {
      await api.close();
    }
  });

  it('elsewhere: at least 6 characters, as /register says', async () => {
    const api = await ApiTestClient.start({ personas: ['iago', 'hamlet'] });
    try {
      expectError(await api.as('iago').post('/api/v1/users', { email: 'dev@acme.test', password: 'abc', full_name: 'Dev User' }), 'The password is too weak.');
      expect(await register(api)).toMatchObject({ password_min_length: 6, password_min_guesses: 10000 });
    } finally {
      await api.close();
    }
  });
});
