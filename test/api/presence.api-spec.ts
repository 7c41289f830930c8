import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand, DeactivateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** POST /users/me/presence, GET /users/{user_id_or_email}/presence, GET /realm/presence, presence events (≈ zerver/tests/test_presence.py, test_events.py). */
const PRESENCE = '/api/v1/users/me/presence';
const HOUR = 3_600_000;

describe('presence', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'polonius'] })));
  afterEach(() => api.close());

  const { id, register, events } = personaHelpers(() => api);
  const email = (name: string) => api.user(name).email;
  const now = () => Math.floor(api.clock.now().getTime() / 1000);
  const ping = async (who: string, params: Record<string, unknown> = {}) => expectSuccess(await api.as(who).post(PRESENCE, { status: 'active', ...params }));
  const realmPresences = async (who: string) => expectSuccess(await api.as(who).get('/api/v1/realm/presence')).presences;
  const legacyEntry = (status: string, timestamp: number) => ({
    website: { client: 'website', status, timestamp, pushable: false },
    aggregated: { client: 'website', status, timestamp },
  });

  describe('POST /users/me/presence', () => {
    it('records the ping and answers everyone\'s presence in the legacy shape, keyed by email', async () => {
      const t0 = now();
      await ping('hamlet');
      api.clock.advance(30_000);
      const body = await ping('cordelia', { status: 'idle' });
      expect(body.server_timestamp).toBeCloseTo(t0 + 30, 0);
      // get_presence_response answers the newest update id in either shape.
      expect(body.presence_last_update_id).toBe(2);
      expect(body.presences).toEqual({
        [email('hamlet')]: legacyEntry('active', t0),
        // Never active: counted as active when the account was created (the clock's start), which is
        // within 70 seconds of the connection.
        [email('cordelia')]: legacyEntry('active', t0),
      });
      // Presence is not in the event log.
      expect(await api.newEvents()).toEqual([]);
    });

    it('shows idle at the last connection when the last activity is more than 70 seconds older', async () => {
      const t0 = now();
      await ping('hamlet');
      api.clock.advance(HOUR);
      await ping('hamlet', { status: 'idle' });
      expect((await ping('iago')).presences[email('hamlet')]).toEqual(legacyEntry('idle', t0 + 3600));
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
      expect(body.presence_last_update_id).toBe(1);
    });

    it('answers nothing but success with ping_only', async () => {
      expect(await ping('hamlet', { ping_only: true, new_user_input: true })).toEqual({ result: 'success', msg: '' });
      expect((await ping('cordelia', { slim_presence: true })).presences).toHaveProperty(String(id('hamlet')));
    });

    it('leaves out users not connected within history_limit_days (two weeks by default), unless the client already has data', async () => {
      await ping('iago');
      await ping('hamlet');
      api.clock.advance(3 * 86_400_000);
      const keys = (body: any) => Object.keys(body.presences).sort();
      expect(keys(await ping('cordelia', { slim_presence: true, history_limit_days: 2 }))).toEqual([String(id('cordelia'))]);
      expect(keys(await ping('cordelia', { slim_presence: true }))).toEqual([id('iago'), id('hamlet'), id('cordelia')].map(String).sort());
      // history_limit_days 0: no presence data at all.
      expect(await ping('cordelia', { history_limit_days: 0 })).toMatchObject({ presences: {}, presence_last_update_id: -1 });
      // A client holding data (last_update_id > 0) gets every change since, however old.
      expect(keys(await ping('iago', { last_update_id: 1, history_limit_days: 2 }))).toEqual([id('iago'), id('hamlet'), id('cordelia')].map(String).sort());
      expect(keys(await ping('iago', { last_update_id: 0, history_limit_days: 2 }))).toEqual([id('iago'), id('cordelia')].map(String).sort());
      api.clock.advance(12 * 86_400_000);
      expect(keys(await ping('cordelia', { slim_presence: true }))).toEqual([id('iago'), id('cordelia')].map(String).sort());
    });

    it('refuses a bad status, a missing one, bad types and bots, recording nothing', async () => {
      expectError(await api.as('hamlet').post(PRESENCE, { status: 'away' }), 'Invalid status: away');
      expectError(await api.as('hamlet').post(PRESENCE, {}), 'Missing \'status\' argument', { code: 'REQUEST_VARIABLE_MISSING' });
      // Json[bool] / Json[int] parameters (typed_endpoint): not JSON, then JSON of the wrong type.
      const form = (body: Record<string, string>) => api.as('hamlet').post(PRESENCE).type('form').send({ status: 'active', ...body });
      expectError(await form({ ping_only: 'maybe' }), 'ping_only is not valid JSON', { code: 'BAD_REQUEST' });
      expectError(await form({ ping_only: '1' }), 'ping_only is not a boolean', { code: 'BAD_REQUEST' });
      expectError(await form({ new_user_input: '"yes"' }), 'new_user_input is not a boolean', { code: 'BAD_REQUEST' });
      expectError(await form({ slim_presence: 'null' }), 'slim_presence is not a boolean', { code: 'BAD_REQUEST' });
      expectError(await form({ last_update_id: 'x' }), 'last_update_id is not valid JSON', { code: 'BAD_REQUEST' });
      expectError(await form({ last_update_id: '1.5' }), 'last_update_id is not an integer', { code: 'BAD_REQUEST' });
      expectError(await form({ history_limit_days: 'true' }), 'history_limit_days is not an integer', { code: 'BAD_REQUEST' });
      const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Ping Bot', shortName: 'ping', ownerId: id('hamlet') }));
      expectError(await api.http.post(PRESENCE).auth(bot.email, bot.apiKey).type('form').send({ status: 'active' }), 'This endpoint does not accept bot requests.');
      // Nothing was recorded by the refused requests.
      expect((await ping('iago', { slim_presence: true })).presences).toEqual({ [String(id('iago'))]: expect.any(Object) });
    });
  });

  describe('presence_enabled off (invisible mode)', () => {
    it('records no pings and shows the user offline to everyone, until it is on again', async () => {
      const t0 = now();
      api.clock.advance(HOUR);
      const t1 = now();
      await ping('hamlet');
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { presence_enabled: false }));
      api.clock.advance(60_000);
      await ping('hamlet');
      // Never active since joining (t0), last connected the threshold plus two minutes before the last ping.
      const hidden = { active_timestamp: t0, idle_timestamp: t1 - 260 };
      expect((await ping('cordelia', { slim_presence: true })).presences[String(id('hamlet'))]).toEqual(hidden);
      expect((await realmPresences('polonius'))[email('hamlet')]).toEqual(legacyEntry('idle', t1 - 260));
      expect(expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`)).presence).toEqual({
        aggregated: { status: 'offline', timestamp: t1 - 260 },
        website: { status: 'idle', timestamp: t1 - 260 },
      });
      expect(expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`, { slim_presence: true })).presence).toEqual(hidden);
      // The deprecated `away` of POST /users/me/status is the same setting.
      expectSuccess(await api.as('hamlet').post('/api/v1/users/me/status', { away: false }));
      api.clock.advance(60_000);
      await ping('hamlet');
      expect((await ping('cordelia', { slim_presence: true })).presences[String(id('hamlet'))]).toEqual({ active_timestamp: now(), idle_timestamp: now() });
    });

    it('tells everyone at once when the setting changes, in each client\'s shape', async () => {
      api.clock.advance(HOUR);
      await ping('hamlet');
      const legacy = await register('cordelia', { event_types: ['presence'] });
      const slim = await register('cordelia', { event_types: ['presence'], slim_presence: true });
      const modern = await register('iago', { event_types: ['presence'], client_capabilities: { simplified_presence_events: true } });
      api.clock.advance(30_000);
      const off = now();
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { presence_enabled: false }));
      api.clock.advance(30_000);
      const on = now();
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { presence_enabled: true }));
      const website = (status: string, timestamp: number) => ({ website: { client: 'website', status, timestamp, pushable: false } });
      expect(await events('cordelia', legacy.queue_id)).toEqual([
        { id: 0, type: 'presence', user_id: id('hamlet'), email: email('hamlet'), server_timestamp: off, presence: website('idle', off - 260) },
        { id: 1, type: 'presence', user_id: id('hamlet'), email: email('hamlet'), server_timestamp: on, presence: website('active', on) },
      ]);
      // slim_presence: the legacy event without the email.
      expect(await events('cordelia', slim.queue_id)).toEqual([
        { id: 0, type: 'presence', user_id: id('hamlet'), server_timestamp: off, presence: website('idle', off - 260) },
        { id: 1, type: 'presence', user_id: id('hamlet'), server_timestamp: on, presence: website('active', on) },
      ]);
      const joined = off - 3630;
      expect(await events('iago', modern.queue_id)).toEqual([
        { id: 0, type: 'presence', presences: { [String(id('hamlet'))]: { active_timestamp: joined, idle_timestamp: off - 260 } } },
        { id: 1, type: 'presence', presences: { [String(id('hamlet'))]: { active_timestamp: on, idle_timestamp: on } } },
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
      // Back after an hour away: online again (an idle ping does not count).
      api.clock.advance(HOUR);
      await ping('hamlet', { status: 'idle' });
      expect(await events('cordelia', queue_id)).toHaveLength(1);
      await ping('hamlet');
      const got = await events('cordelia', queue_id);
      expect(got).toHaveLength(2);
      expect(got[1]).toMatchObject({ type: 'presence', presence: { website: { status: 'active', timestamp: now() } } });
    });

    it('sends the modern shape to clients with simplified_presence_events, and the user\'s own first ping to themselves too', async () => {
      const { queue_id } = await register('hamlet', { event_types: ['presence'], client_capabilities: { simplified_presence_events: true } });
      const t0 = now();
      await ping('hamlet', { status: 'idle' });
      expect(await events('hamlet', queue_id)).toEqual([{ id: 0, type: 'presence', presences: { [String(id('hamlet'))]: { active_timestamp: t0, idle_timestamp: t0 } } }]);
    });

    it('sends nothing for a hidden user\'s pings', async () => {
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { presence_enabled: false }));
      const { queue_id } = await register('cordelia', { event_types: ['presence'] });
      await ping('hamlet');
      expect(await events('cordelia', queue_id)).toEqual([]);
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
        server_timestamp: t0,
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
      // The intervals come with every register; the presence keys only when asked for.
      const other = await register('cordelia', { fetch_event_types: ['message'] });
      expect(other).toMatchObject({ server_presence_ping_interval_seconds: 60, server_presence_offline_threshold_seconds: 140 });
      expect(other).not.toHaveProperty('presences');
    });
  });

  describe('GET /users/{user_id_or_email}/presence', () => {
    it('answers by id or email, legacy or slim; offline past the threshold', async () => {
      const t0 = now();
      await ping('hamlet');
      const byId = expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`));
      expect(byId.presence).toEqual({ aggregated: { status: 'active', timestamp: t0 }, website: { status: 'active', timestamp: t0 } });
      const byEmail = expectSuccess(await api.as('polonius').get(`/api/v1/users/${email('hamlet')}/presence`));
      expect(byEmail.presence).toEqual(byId.presence);
      const slim = expectSuccess(await api.as('polonius').get(`/api/v1/users/${email('hamlet')}/presence`, { slim_presence: true }));
      expect(slim.presence).toEqual({ active_timestamp: t0, idle_timestamp: t0 });
      api.clock.advance(141_000);
      const later = expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`));
      expect(later.presence).toEqual({ aggregated: { status: 'offline', timestamp: t0 }, website: { status: 'active', timestamp: t0 } });
    });

    it('refuses unknown and deactivated users, bots, users without data and bad parameters', async () => {
      expectError(await api.as('cordelia').get('/api/v1/users/9999/presence'), 'No such user');
      expectError(await api.as('cordelia').get('/api/v1/users/nobody@acme.test/presence'), 'No such user');
      expectError(await api.as('cordelia').get(`/api/v1/users/${email('iago')}/presence`), `No presence data for ${email('iago')}`);
      expectError(await api.as('cordelia').get(`/api/v1/users/${id('iago')}/presence`), `No presence data for ${id('iago')}`);
      expectError(await api.as('cordelia').get(`/api/v1/users/${id('iago')}/presence`, { slim_presence: 'maybe' }), 'slim_presence is not valid JSON');
      const bus = api.app.get(CommandBus);
      const bot = await bus.execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Ping Bot', shortName: 'ping', ownerId: id('hamlet') }));
      expectError(await api.as('cordelia').get(`/api/v1/users/${bot.userId}/presence`), 'Presence is not supported for bot users.');
      // Bots may read presence (the endpoint is for API use).
      await ping('hamlet');
      expectSuccess(await api.http.get(`/api/v1/users/${id('hamlet')}/presence`).auth(bot.email, bot.apiKey));
      expectSuccess(await api.http.get('/api/v1/realm/presence').auth(bot.email, bot.apiKey));
      await bus.execute(new DeactivateUserCommand({ actor: operatorActor(api.realmId) }, id('hamlet')));
      expectError(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}/presence`), 'No such user');
      // Deactivated users are left out of the organization's presence too.
      expect((await ping('cordelia', { slim_presence: true })).presences).not.toHaveProperty(String(id('hamlet')));
    });
  });

  describe('GET /realm/presence', () => {
    it('answers everyone\'s presence in the legacy shape, without the update id', async () => {
      const t0 = now();
      await ping('hamlet', { status: 'idle' });
      const body = expectSuccess(await api.as('polonius').get('/api/v1/realm/presence'));
      expect(body).toEqual({ result: 'success', msg: '', server_timestamp: t0, presences: { [email('hamlet')]: legacyEntry('active', t0) } });
    });
  });
  describe('OpenAPI', () => {
    it('describes the three routes with their parameters', async () => {
      const response = await api.as('hamlet').get('/api/v1/openapi.json');
      expect(response.status).toBe(200);
      const { paths } = response.body;
      const post = paths['/api/v1/users/me/presence'].post;
      expect(post).toMatchObject({ 'x-caller': 'human' });
      const body = post.requestBody.content['application/x-www-form-urlencoded'].schema;
      expect(Object.keys(body.properties).sort()).toEqual(['history_limit_days', 'last_update_id', 'new_user_input', 'ping_only', 'slim_presence', 'status']);
      expect(body.required).toEqual(['status']);
      expect(paths['/api/v1/users/{user_id_or_email}/presence'].get.parameters.map((p: any) => [p.name, p.in])).toEqual([['user_id_or_email', 'path'], ['slim_presence', 'query']]);
      expect(paths['/api/v1/realm/presence'].get.summary).toEqual(expect.any(String));
    });
  });
});
