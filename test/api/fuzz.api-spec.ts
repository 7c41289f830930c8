import { CommandBus } from '@nestjs/cqrs';
import { DeactivateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, checkFuzzResponse, type FuzzCredentials, generateFuzzRequests, keepFuzzPersonasActive, mayHaveDeactivated, sendFuzzRequest } from '../support';
import { listApiRoutes } from '../../apps/api/src/openapi/api-routes';

/**
 * Generated malformed requests against every /api/v1 route (wrong types, invalid JSON and UTF-8,
 * NUL bytes, huge and deep values, unknown parameters, wrong methods, bad and deactivated
 * credentials): no 5xx, and every error in Zulip's envelope with a code. This is the short run;
 * the long one (≥ 50,000 requests) is `npm run reliability:fuzz` (docs/reliability.md).
 */
describe('fuzzing every endpoint', () => {
  let api: ApiTestClient;
  let credentials: FuzzCredentials;
  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'polonius'] });
    await api.app.get(CommandBus).execute(new DeactivateUserCommand({ actor: operatorActor(api.realmId) }, api.user('cordelia').userId));
    credentials = { valid: api.user('hamlet'), valid2: api.user('iago'), deactivated: api.user('cordelia'), guest: api.user('polonius') };
  });
  afterAll(() => api.close());

  it('answers 2,000 hostile requests without a server error, always in the envelope', async () => {
    const routes = listApiRoutes(api.app);
    expect(routes.length).toBeGreaterThan(0);
    const failures: string[] = [];
    const agent = (method: string, path: string) => api.http[method.toLowerCase() as 'get'](path);
    for (const request of generateFuzzRequests(routes, 2000, 20261121)) {
      const response = await sendFuzzRequest(agent, request, credentials);
      if (mayHaveDeactivated(request, response)) await keepFuzzPersonasActive(api, ['hamlet', 'iago', 'polonius']);
      const failure = checkFuzzResponse(request, response);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('answers hostile requests to the routes outside /api/v1 (files, avatars, confirmation links) without a server error', async () => {
    const segments = ['1', '0', '-1', 'abc', '99999999999999999999', '%00', '%FF', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(300), '😀', '%2e%2e', '1.5', ''];
    const templates = [
      '/avatar/$', '/avatar/$/medium', '/user_uploads/$/$/$', '/user_uploads/temporary/$/$', '/user_uploads/download/$/$/$', `/user_uploads/${api.realmId}/$/$`,
      '/user_avatars/$/emoji/images/$', '/static/images/realm-icon.svg', '/accounts/confirm_new_email/$', '/accounts/confirm_new_email/$/', '/emails', '/emails/raw/$', '/health', '/health/$',
    ];
    const failures: string[] = [];
    let n = 0;
    for (const template of templates) {
      for (const segment of segments) {
        const path = template.replace(/\$/g, () => segments[(segments.indexOf(segment) + n++) % segments.length] || segment);
        for (const method of ['get', 'post', 'delete'] as const) {
          for (const who of [null, 'hamlet']) {
            let req = api.http[method](path);
            if (who) req = req.auth(api.user(who).email, api.user(who).apiKey);
            const response = await req.query({ s: '\u0000', size: '-1' });
            if (response.status >= 500) failures.push(`${method.toUpperCase()} ${path} (${who ?? 'anonymous'}) → ${response.status} ${response.text?.slice(0, 200)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
