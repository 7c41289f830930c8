import { ApiTestClient, generateFuzzRequests, type FuzzRequest } from '@app/testing';
import { listApiRoutes } from '../../apps/api/src/openapi/api-routes';

/**
 * Generated malformed requests against every /api/v1 route (wrong types, invalid JSON and UTF-8,
 * NUL bytes, huge and deep values, unknown parameters, wrong methods, bad credentials): no 5xx,
 * and every error in Zulip's envelope with a code. The long run is `npm run bench:fuzz`.
 */
describe('fuzzing every endpoint', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet'] })));
  afterAll(() => api.close());

  const send = (r: FuzzRequest) => {
    const { email, apiKey } = api.user(r.auth === 'valid' && r.path.length % 2 === 0 ? 'iago' : 'hamlet');
    let req = api.http[r.method.toLowerCase() as 'get'](r.path);
    if (r.query) req = req.query(r.query);
    if (r.auth === 'valid') req = req.auth(email, apiKey);
    if (r.auth === 'bad-key') req = req.auth(email, 'A'.repeat(32));
    if (r.auth === 'malformed-key') req = req.auth(email, 'short');
    if (r.auth === 'bearer') req = req.set('Authorization', `Bearer ${apiKey}`);
    if (r.auth === 'garbage') req = req.set('Authorization', 'Basic !!!not-base64\u00ff');
    if (r.rawBody) return req.set('Content-Type', r.contentType ?? 'application/octet-stream').send(r.rawBody);
    if (r.form) return req.type('form').send(r.form);
    return req;
  };

  it('answers 2,000 hostile requests without a server error, always in the envelope', async () => {
    const routes = listApiRoutes(api.app);
    expect(routes.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const request of generateFuzzRequests(routes, 2000, 20261121)) {
      const response = await send(request);
      const body = response.body ?? {};
      const enveloped = body.result === 'success' || (body.result === 'error' && typeof body.msg === 'string' && body.msg !== '' && typeof body.code === 'string');
      const isDocument = request.path === '/api/v1/openapi.json' && response.status === 200;
      if (response.status >= 500 || (!enveloped && !isDocument)) {
        failures.push(`${request.label}: ${request.method} ${request.path} → ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
