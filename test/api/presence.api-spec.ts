import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand, DeactivateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** POST /users/me/presence, GET /users/{user_id_or_email}/presence, GET /realm/presence, presence events (≈ zerver/tests/test_presence.py). */
const PRESENCE = '/api/v1/users/me/presence';

describe('presence', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'polonius'] })));
  afterEach(() => api.close());

  const id = (name: string) => api.user(name).userId;
  const email = (name: string) => api.user(name).email;
  const now = () => Math.floor(api.clock.now().getTime() / 1000);
  const ping = async (who: string, params: Record<string, unknown> = {}) => expectSuccess(await api.as(who).post(PRESENCE, { status: 'active', ...params }));
  const register = async (who: string, params: Record<string, unknown> = {}) => expectSuccess(await api.as(who).post('/api/v1/register', params));
  const events = async (who: string, queueId: string) =>
    expectSuccess(await api.as(who).get('/api/v1/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).events as any[];

  describe('POST /users/me/presence', () => {
    it('records the ping and answers everyone\'s presence in the legacy shape, keyed by email', async () => {
      const t0 = now();
      await ping('hamlet');
      api.clock.advance(30_000);
      const body = await ping('cordelia', { status: 'idle' });
      expect(body.server_timestamp).toBeCloseTo(t0 + 30, 0);
      expect(body).not.toHaveProperty('presence_last_update_id');
      expect(body.presences).toEqual({
        [email('hamlet')]: {
          website: { client: 'website', status: 'active', timestamp: t0, pushable: false },
          aggregated: { client: 'website', status: 'active', timestamp: t0 },
        },
        // Never active: counted as active when the account was created (the clock's start).
        [email('cordelia')]: expect.objectContaining({ aggregated: { client: 'website', status: 'active', timestamp: t0 } }),
      });
      // No row is written for a persona that never pinged; events are not in the log.
      expect(await api.newEvents()).toEqual([]);
    });

    it('answers the modern shape by user id with slim_presence, and only changes after last_update_id', async () => {
      const t0 = now();
      await ping('hamlet');
      const first = await ping('cordelia', { last_update_id: -1 });
      expect(first.presences).toEqual({
        [String(id('hamlet'))]: { active_timestamp: t0, idle_timestamp: t0 },
        [String(id('cordelia'))]: { active_timestamp: t0, idle_timestamp: t0 },
      });
      expect(first.presence_last_update_id).toBe(2);
      // Nothing changed since: nothing to send, and the id stays.
      const again = await ping('cordelia', { last_update_id: first.presence_last_update_id });
      expect(again).toMatchObject({ presences: {}, presence_last_update_id: 2 });
      api.clock.advance(60_000);
      const later = await ping('hamlet', { status: 'idle', last_update_id: 2 });
      expect(later.presences).toEqual({ [String(id('hamlet'))]: { active_timestamp: t0, idle_timestamp: t0 + 60 } });
      expect(later.presence_last_update_id).toBe(3);
      expect((await ping('iago', { slim_presence: true })).presences).toHaveProperty(String(id('hamlet')));
    });

    it('keeps pings closer than 55 seconds from moving the times', async () => {
      const t0 = now();
      await ping('hamlet');
      api.clock.advance(50_000);
      const body = await ping('hamlet', { slim_presence: true });
      expect(body.presences[String(id('hamlet'))]).toEqual({ active_timestamp: t0, idle_timestamp: t0 });
    });

    it('answers nothing but success with ping_only', async () => {
      expect(await ping('hamlet', { ping_only: true, new_user_input: true })).toEqual({ result: 'success', msg: '' });
      expect((await ping('cordelia', { slim_presence: true })).presences).toHaveProperty(String(id('hamlet')));
    });

    it('leaves out users not connected within history_limit_days (two weeks by default)', async () => {
      await ping('hamlet');
      api.clock.advance(3 * 86_400_000);
      expect(Object.keys((await ping('cordelia', { slim_presence: true, history_limit_days: 2 })).presences)).toEqual([String(id('cordelia'))]);
      expect(Object.keys((await ping('cordelia', { slim_presence: true })).presences)).toHaveLength(2);
      api.clock.advance(12 * 86_400_000);
      expect(Object.keys((await ping('cordelia', { slim_presence: true })).presences)).toEqual([String(id('cordelia'))]);
    });

    it('refuses a bad status, a missing one, bad types and bots', async () => {
      expectError(await api.as('hamlet').post(PRESENCE, { status: 'away' }), 'Invalid status: away');
      expectError(await api.as('hamlet').post(PRESENCE, {}), 'Missing \'status\' argument', { code: 'REQUEST_VARIABLE_MISSING' });
      expectError(await api.as('hamlet').post(PRESENCE).type('form').send({ status: 'active', ping_only: 'maybe' }), 'ping_only is not a boolean', { code: 'BAD_REQUEST' });
      expectError(await api.as('hamlet').post(PRESENCE).type('form').send({ status: 'active', last_update_id: 'x' }), 'last_update_id is not an integer', { code: 'BAD_REQUEST' });
      const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Ping Bot', shortName: 'ping', ownerId: id('hamlet') }));
      expectError(await api.http.post(PRESENCE).auth(bot.email, bot.apiKey).type('form').send({ status: 'active' }), 'This endpoint does not accept bot requests.');
      // Nothing was recorded by the refused requests.
      expect((await ping('iago', { slim_presence: true })).presences).toEqual({ [String(id('iago'))]: expect.any(Object) });
    });
  });

  describe('presence_enabled off (invisible mode)', () => {
    it('records nothing and shows the user to nobody, until it is on again', async () => {
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { presence_enabled: false }));
      await ping('hamlet');
      expect((await ping('cordelia', { slim_presence: true })).presences).not.toHaveProperty(String(id('hamlet')));
      expectError(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`), `No presence data for ${id('hamlet')}`);
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { presence_enabled: true }));
      await ping('hamlet');
      expect((await ping('cordelia', { slim_presence: true })).presences).toHaveProperty(String(id('hamlet')));
    });

    it('hides a user who was online already, and tells others at once that they look offline', async () => {
      await ping('hamlet');
      const { queue_id } = await register('cordelia', { event_types: ['presence'] });
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { presence_enabled: false }));
      expect((await ping('cordelia', { slim_presence: true })).presences).not.toHaveProperty(String(id('hamlet')));
      const got = await events('cordelia', queue_id);
      expect(got).toEqual([
        {
          id: 0, type: 'presence', user_id: id('hamlet'), email: email('hamlet'), server_timestamp: now(),
          presence: { website: { client: 'website', status: 'idle', timestamp: now() - 141, pushable: false } },
        },
      ]);
    });
  });

  describe('presence events', () => {
    it('tells every active user when someone comes online, not on every ping', async () => {
      const { queue_id } = await register('cordelia', { event_types: ['presence'] });
      const t0 = now();
      await ping('hamlet');
      api.clock.advance(60_000);
      await ping('hamlet');
      const expected = { type: 'presence', user_id: id('hamlet'), email: email('hamlet'), server_timestamp: t0, presence: { website: { client: 'website', status: 'active', timestamp: t0, pushable: false } } };
      expect(await events('cordelia', queue_id)).toEqual([{ id: 0, ...expected }]);
      // Back after an hour away: online again.
      api.clock.advance(3_600_000);
      await ping('hamlet', { status: 'idle' });
      expect(await events('cordelia', queue_id)).toHaveLength(1);
      await ping('hamlet');
      const got = await events('cordelia', queue_id);
      expect(got).toHaveLength(2);
      expect(got[1]).toMatchObject({ type: 'presence', presence: { website: { status: 'active', timestamp: now() } } });
    });
  });

  describe('POST /register', () => {
    it('answers presences, the last update id and the server\'s intervals', async () => {
      const t0 = now();
      await ping('hamlet');
      const legacy = await register('cordelia', { fetch_event_types: ['presence'] });
      expect(legacy).toMatchObject({
        presences: { [email('hamlet')]: { aggregated: { status: 'active', timestamp: t0 } } },
        presence_last_update_id: 1,
        server_presence_ping_interval_seconds: 60,
        server_presence_offline_threshold_seconds: 140,
      });
      const slim = await register('cordelia', { fetch_event_types: ['presence'], slim_presence: true });
      expect(slim.presences).toEqual({ [String(id('hamlet'))]: { active_timestamp: t0, idle_timestamp: t0 } });
      await ping('iago');
      const since = await register('cordelia', { fetch_event_types: ['presence'], presence_last_update_id: 1 });
      expect(Object.keys(since.presences)).toEqual([String(id('iago'))]);
      expect(since.presence_last_update_id).toBe(2);
      api.clock.advance(3 * 86_400_000);
      expect((await register('cordelia', { fetch_event_types: ['presence'], presence_history_limit_days: 1 })).presences).toEqual({});
    });
  });

  describe('GET /users/{user_id_or_email}/presence', () => {
    it('answers by id or email; offline past the threshold', async () => {
      const t0 = now();
      await ping('hamlet');
      const byId = expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`));
      expect(byId.presence).toEqual({ aggregated: { status: 'active', timestamp: t0 }, website: { status: 'active', timestamp: t0 } });
      const byEmail = expectSuccess(await api.as('polonius').get(`/api/v1/users/${email('hamlet')}/presence`));
      expect(byEmail.presence).toEqual(byId.presence);
      api.clock.advance(141_000);
      const later = expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`));
      expect(later.presence).toEqual({ aggregated: { status: 'offline', timestamp: t0 }, website: { status: 'idle', timestamp: t0 } });
    });

    it('refuses unknown and deactivated users, bots, and users without data', async () => {
      expectError(await api.as('cordelia').get('/api/v1/users/9999/presence'), 'No such user');
      expectError(await api.as('cordelia').get('/api/v1/users/nobody@acme.test/presence'), 'No such user');
      expectError(await api.as('cordelia').get(`/api/v1/users/${email('iago')}/presence`), `No presence data for ${email('iago')}`);
      const bus = api.app.get(CommandBus);
      const bot = await bus.execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Ping Bot', shortName: 'ping', ownerId: id('hamlet') }));
      expectError(await api.as('cordelia').get(`/api/v1/users/${bot.userId}/presence`), 'Presence is not supported for bot users.');
      await ping('hamlet');
      await bus.execute(new DeactivateUserCommand({ actor: operatorActor(api.realmId) }, id('hamlet')));
      expectError(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`), 'No such user');
      // Deactivated users are left out of the organization's presence too.
      expect((await ping('cordelia', { slim_presence: true })).presences).not.toHaveProperty(String(id('hamlet')));
    });
  });

  describe('GET /realm/presence', () => {
    it('answers everyone\'s presence in the legacy shape', async () => {
      const t0 = now();
      await ping('hamlet', { status: 'idle' });
      const body = expectSuccess(await api.as('polonius').get('/api/v1/realm/presence'));
      expect(body).toEqual({
        result: 'success', msg: '', server_timestamp: t0,
        presences: { [email('hamlet')]: { website: { client: 'website', status: 'active', timestamp: t0, pushable: false }, aggregated: { client: 'website', status: 'active', timestamp: t0 } } },
      });
    });
  });
});
