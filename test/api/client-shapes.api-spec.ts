import { ApiTestClient, expectSuccess } from '../support';
import type { Test } from 'supertest';

/**
 * The two real clients shape requests differently, and every endpoint must take both:
 * - the Python bindings (`zulip` package): form bodies for POST/PATCH/DELETE with every non-string
 *   parameter JSON-encoded, query strings for GET, User-Agent "ZulipPython/<version>";
 * - the JavaScript client (`zulip-js`): every POST as multipart/form-data, PATCH and DELETE
 *   parameters in the query string, GET in the query string.
 * Each fixture is a successful call; both shapes must succeed and report no ignored parameter.
 */
type Fixture = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: (api: ApiTestClient) => string; as: string; params: (n: number) => Record<string, unknown> };

const FIXTURES: Fixture[] = [
  { method: 'GET', path: () => '/api/v1/server_settings', as: 'hamlet', params: () => ({}) },
  { method: 'POST', path: () => '/api/v1/register', as: 'hamlet', params: () => ({ event_types: ['message'], apply_markdown: true, client_gravatar: false }) },
  { method: 'GET', path: () => '/api/v1/users', as: 'hamlet', params: () => ({ client_gravatar: true, include_custom_profile_fields: false }) },
  { method: 'GET', path: () => '/api/v1/users/me', as: 'hamlet', params: () => ({}) },
  { method: 'GET', path: (api) => `/api/v1/users/${api.user('cordelia').userId}`, as: 'hamlet', params: () => ({ client_gravatar: false }) },
  { method: 'POST', path: () => '/api/v1/users', as: 'iago', params: (n) => ({ email: `shape${n}@acme.test`, password: 'long-enough', full_name: `Shape ${n}` }) },
  { method: 'PATCH', path: (api) => `/api/v1/users/${api.user('cordelia').userId}`, as: 'iago', params: (n) => ({ full_name: `Cordelia ${n}`, role: 400 }) },
  { method: 'POST', path: () => '/api/v1/bots', as: 'hamlet', params: (n) => ({ full_name: `Shape Bot ${n}`, short_name: `shape${n}`, bot_type: 1 }) },
  { method: 'POST', path: () => '/api/v1/fetch_api_key', as: 'anonymous', params: () => ({ username: 'hamlet@acme.test', password: 'hamlet-password' }) },
  { method: 'POST', path: () => '/api/v1/realm/filters', as: 'iago', params: (n) => ({ pattern: `SHAPE${n}-(?P<id>\\d+)`, url_template: 'https://tracker.test/{id}' }) },
  { method: 'GET', path: () => '/api/v1/realm/linkifiers', as: 'hamlet', params: () => ({}) },
];

const encodeLikePython = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
/** zulip-js stringifies values itself: booleans and numbers as text, arrays and objects as JSON. */
const encodeLikeZulipJs = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]));

describe('both official clients\' request shapes', () => {
  let api: ApiTestClient;
  let n = 0;
  beforeAll(async () => (api = await ApiTestClient.start()));
  afterAll(() => api.close());

  const authenticate = (req: Test, who: string) => (who === 'anonymous' ? req : req.auth(api.user(who).email, api.user(who).apiKey));

  it.each(FIXTURES.map((f) => [`${f.method} ${f.path.toString().includes('userId') ? '/users/{id}' : f.path({} as ApiTestClient)}`, f]))(
    '%s as the Python bindings send it',
    async (_label, fixture) => {
      const params = encodeLikePython(fixture.params(++n));
      const path = fixture.path(api);
      let req = authenticate(api.http[fixture.method.toLowerCase() as 'get'](path), fixture.as).set('User-Agent', 'ZulipPython/0.9.0 (Linux)');
      req = fixture.method === 'GET' ? req.query(params) : req.type('form').send(params);
      const body = expectSuccess(await req);
      expect(body.ignored_parameters_unsupported).toBeUndefined();
    },
  );

  it.each(FIXTURES.map((f) => [`${f.method} ${f.path.toString().includes('userId') ? '/users/{id}' : f.path({} as ApiTestClient)}`, f]))(
    '%s as zulip-js sends it',
    async (_label, fixture) => {
      const params = encodeLikeZulipJs(fixture.params(++n));
      const path = fixture.path(api);
      let req = authenticate(api.http[fixture.method.toLowerCase() as 'get'](path), fixture.as);
      if (fixture.method === 'POST') for (const [k, v] of Object.entries(params)) req = req.field(k, v);
      else req = req.query(params);
      const body = expectSuccess(await req);
      expect(body.ignored_parameters_unsupported).toBeUndefined();
    },
  );
});
