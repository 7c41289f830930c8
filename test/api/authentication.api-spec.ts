import { CommandBus } from '@nestjs/cqrs';
import { DeactivateRealmCommand, DeactivateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Spec A1–A2 and Zulip's failure modes of HTTP Basic authentication and of logging in. */
describe('authentication', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['desdemona', 'iago', 'hamlet', 'cordelia'] })));
  afterEach(() => api.close());

  const me = (authorization?: string) => {
    const request = api.http.get('/api/v1/users/me');
    return authorization === undefined ? request : request.set('Authorization', authorization);
  };

  it('accepts the email address (in any case) and the API key', async () => {
    const { email, apiKey, userId } = api.user('hamlet');
    expect(expectSuccess(await me(basic(email.toUpperCase(), apiKey))).user_id).toBe(userId);
  });

  it.each([
    ['no header at all', undefined, 'Not logged in: API authentication or user session required'],
    ['a header that is not "scheme credentials"', 'Basic', 'Invalid authorization header for basic auth'],
    ['credentials that are not base64', 'Basic %%%%', 'Invalid authorization header for basic auth'],
    ['base64 without a colon', `Basic ${Buffer.from('hamlet').toString('base64')}`, 'Invalid authorization header for basic auth'],
    ['a key of the wrong shape', basic('hamlet@acme.test', 'short'), 'Malformed API key'],
    ['a wrong key', basic('hamlet@acme.test', 'A'.repeat(32)), 'Invalid API key'],
    ['an unknown email', basic('nobody@acme.test', 'A'.repeat(32)), 'Invalid API key'],
  ])('refuses %s with 401 UNAUTHORIZED and WWW-Authenticate', async (_case, header, message) => {
    const response = await me(header);
    expectError(response, message, { status: 401, code: 'UNAUTHORIZED' });
    expect(response.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('refuses another user\'s key for an email', async () => {
    expectError(await me(basic(api.user('hamlet').email, api.user('cordelia').apiKey)), 'Invalid API key', { status: 401 });
  });

  it('refuses a scheme other than Basic with a 400', async () => {
    expectError(await me(`Bearer ${api.user('hamlet').apiKey}`), 'This endpoint requires HTTP basic authentication.', { status: 400 });
  });

  it('refuses a deactivated account', async () => {
    await api.app.get(CommandBus).execute(new DeactivateUserCommand({ actor: operatorActor(api.realmId) }, api.user('cordelia').userId));
    const { email, apiKey } = api.user('cordelia');
    expectError(await me(basic(email, apiKey)), 'Account is deactivated', { status: 401, code: 'UNAUTHORIZED' });
  });

  it('refuses everyone once the organization is deactivated', async () => {
    await api.app.get(CommandBus).execute(new DeactivateRealmCommand({ actor: operatorActor(api.realmId) }));
    const { email, apiKey } = api.user('hamlet');
    expectError(await me(basic(email, apiKey)), 'This organization has been deactivated', { status: 401 });
  });

  describe('POST /fetch_api_key', () => {
    it('returns the API key for the right password, without authentication', async () => {
      const body = expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'HAMLET@acme.test', password: 'hamlet-password' }));
      expect(body).toEqual(expect.objectContaining({ api_key: api.user('hamlet').apiKey, email: 'hamlet@acme.test', user_id: api.user('hamlet').userId }));
    });

    it('refuses a wrong password or an unknown account alike', async () => {
      for (const form of [{ username: 'hamlet@acme.test', password: 'nope' }, { username: 'ghost@acme.test', password: 'nope' }]) {
        expectError(await api.http.post('/api/v1/fetch_api_key').type('form').send(form), 'Your username or password is incorrect', { status: 401, code: 'AUTHENTICATION_FAILED' });
      }
    });

    it('names a missing parameter', async () => {
      expectError(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'hamlet@acme.test' }), "Missing 'password' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    });

    it('refuses an email that is not an address', async () => {
      expectError(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'hamlet', password: 'x' }), 'Enter a valid email address.');
    });
  });

  describe('development endpoints', () => {
    it('hand out any account\'s key on a development server', async () => {
      await api.close();
      api = await ApiTestClient.start({ personas: ['iago', 'hamlet'], config: { env: 'development' } });
      const body = expectSuccess(await api.http.post('/api/v1/dev_fetch_api_key').type('form').send({ username: 'iago@acme.test' }));
      expect(body).toMatchObject({ api_key: api.user('iago').apiKey, email: 'iago@acme.test', user_id: api.user('iago').userId });
      const list = expectSuccess(await api.http.get('/api/v1/dev_list_users'));
      expect(list.direct_admins.map((u: { email: string }) => u.email)).toEqual(['iago@acme.test']);
      expect(list.direct_users.map((u: { email: string }) => u.email)).toEqual(['hamlet@acme.test']);
    });

    it('refuse in production', async () => {
      await api.close();
      api = await ApiTestClient.start({ personas: ['iago'], config: { env: 'production' } });
      expectError(await api.http.post('/api/v1/dev_fetch_api_key').type('form').send({ username: 'iago@acme.test' }), 'Endpoint not available in production.');
      expectError(await api.http.get('/api/v1/dev_list_users'), 'Endpoint not available in production.');
    });

    it('refuse on a test server too (open only under NODE_ENV=development)', async () => {
      await api.close();
      api = await ApiTestClient.start({ personas: ['iago'], config: { env: 'test' } });
      expectError(await api.http.post('/api/v1/dev_fetch_api_key').type('form').send({ username: 'iago@acme.test' }), 'DevAuthBackend not enabled.');
      expectError(await api.http.get('/api/v1/dev_list_users'), 'DevAuthBackend not enabled.');
    });
  });

  describe('rate limits', () => {
    it('answer 429 RATE_LIMIT_HIT with Retry-After past the per-user limit', async () => {
      await api.close();
      api = await ApiTestClient.start({ personas: ['hamlet'], config: { rateLimits: { perUser: { requests: 3, windowSeconds: 60 }, perIp: { requests: 0, windowSeconds: 60 } } } });
      for (let i = 0; i < 3; i++) expectSuccess(await api.as('hamlet').get('/api/v1/users/me'));
      const limited = await api.as('hamlet').get('/api/v1/users/me');
      expectError(limited, 'API usage exceeded rate limit', { status: 429, code: 'RATE_LIMIT_HIT' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body['retry-after']).toBe(Number(limited.headers['retry-after']));
    });

    it('limit password attempts per account at POST /fetch_api_key: 5 per 30 minutes (RATE_LIMITING_AUTHENTICATE)', async () => {
      await api.close();
      api = await ApiTestClient.start({
        personas: ['hamlet', 'iago'],
        config: { rateLimits: { perUser: { requests: 0, windowSeconds: 60 }, perIp: { requests: 0, windowSeconds: 60 }, authenticate: { requests: 5, windowSeconds: 1800 } } },
      });
      const login = (username: string, password: string) => api.http.post('/api/v1/fetch_api_key').type('form').send({ username, password });
      for (let i = 0; i < 5; i++) {
        expectError(await login(i % 2 ? 'HAMLET@acme.test' : 'hamlet@acme.test', `guess-${i}`), 'Your username or password is incorrect', { status: 401, code: 'AUTHENTICATION_FAILED' });
      }
      // The sixth attempt is refused before the password is looked at, the right one included.
      const limited = await login('hamlet@acme.test', 'hamlet-password');
      expectError(limited, 'API usage exceeded rate limit', { status: 429, code: 'RATE_LIMIT_HIT' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(1700);
      expect(limited.body['retry-after']).toBe(Number(limited.headers['retry-after']));
      expect(limited.body).not.toHaveProperty('api_key');
      // Other accounts are not affected.
      expectSuccess(await login('iago@acme.test', 'iago-password'));
    });

    it('start the count again after a successful login (the record is cleared)', async () => {
      await api.close();
      api = await ApiTestClient.start({
        personas: ['hamlet'],
        config: { rateLimits: { perUser: { requests: 0, windowSeconds: 60 }, perIp: { requests: 0, windowSeconds: 60 }, authenticate: { requests: 5, windowSeconds: 1800 } } },
      });
      const login = (password: string) => api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'hamlet@acme.test', password });
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 4; i++) expectError(await login('wrong'), 'Your username or password is incorrect', { status: 401 });
        expectSuccess(await login('hamlet-password'));
      }
    });

    it('count wrong API keys at /user_uploads against the per-IP limit, as /api/v1 does', async () => {
      await api.close();
      api = await ApiTestClient.start({ personas: ['hamlet'], config: { rateLimits: { perUser: { requests: 0, windowSeconds: 60 }, perIp: { requests: 2, windowSeconds: 60 } } } });
      const uploaded = expectSuccess(await api.http.post('/api/v1/user_uploads').auth('hamlet@acme.test', api.user('hamlet').apiKey).attach('file', Buffer.from('x'), 'a.txt'));
      const path = String(uploaded.url);
      const guess = () => api.http.get(path).auth('hamlet@acme.test', 'Z'.repeat(32));
      expect((await guess()).status).toBe(401);
      expect((await guess()).status).toBe(401);
      expectError(await guess(), 'API usage exceeded rate limit', { status: 429, code: 'RATE_LIMIT_HIT' });
    });

    it('count unauthenticated requests per IP address', async () => {
      await api.close();
      api = await ApiTestClient.start({ personas: [], config: { rateLimits: { perUser: { requests: 0, windowSeconds: 60 }, perIp: { requests: 2, windowSeconds: 60 } } } });
      expectSuccess(await api.http.get('/api/v1/server_settings'));
      expectSuccess(await api.http.get('/api/v1/server_settings'));
      expectError(await api.http.get('/api/v1/server_settings'), 'API usage exceeded rate limit', { status: 429 });
    });
  });
});
