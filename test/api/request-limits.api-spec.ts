import { Writable } from 'node:stream';
import pino from 'pino';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * Request limits (issue 12): parameter count and JSON depth bounded with clear 400s in the
 * envelope, rate limits per user and per IP (429 RATE_LIMIT_HIT with Retry-After and Zulip's
 * `retry-after`), and logs that never hold credentials or message content.
 */
describe('request limits', () => {
  describe('parameters and JSON', () => {
    let api: ApiTestClient;
    beforeAll(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet'] })));
    afterAll(() => api.close());

    it('refuses more than 1,000 query parameters', async () => {
      const query = Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&');
      const response = await api.as('hamlet').get(`/api/v1/users/me?${query}`);
      expectError(response, 'Too many parameters (more than 1000)', { code: 'BAD_REQUEST', status: 400 });
    });

    it('refuses more than 1,000 form parameters', async () => {
      const body = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, '1']));
      const response = await api.as('hamlet').patch('/api/v1/settings', body);
      expectError(response, 'Too many parameters (more than 1000)', { code: 'BAD_REQUEST', status: 400 });
    });

    it('refuses more than 1,000 multipart fields', async () => {
      const body = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, '1']));
      const response = await api.as('hamlet').postMultipart('/api/v1/drafts', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    });

    it('accepts 1,000 parameters (ignored ones are listed)', async () => {
      const query = Array.from({ length: 999 }, (_, i) => `p${i}=1`).join('&');
      const response = await api.as('hamlet').get(`/api/v1/users/me?${query}`);
      expectSuccess(response);
      expect(response.body.ignored_parameters_unsupported).toHaveLength(999);
    });

    it('refuses JSON nested deeper than 32 levels, naming the parameter', async () => {
      const deep = '['.repeat(33) + ']'.repeat(33);
      const response = await api.as('hamlet').post('/api/v1/messages/flags', { messages: deep, op: 'add', flag: 'starred' });
      expect(expectError(response, 'messages is nested too deeply (more than 32 levels)', { code: 'BAD_REQUEST' }).var_name).toBe('messages');
    });

    it('counts brackets inside JSON strings as text, not nesting', async () => {
      const response = await api.as('hamlet').post('/api/v1/drafts', {
        drafts: JSON.stringify([{ type: '', to: [], topic: '', content: '['.repeat(100) + '{'.repeat(100) }]),
      });
      expectSuccess(response);
    });

    it('half a megabyte of opening brackets is a 400, not a crash', async () => {
      const response = await api.as('hamlet').post('/api/v1/messages/flags', { messages: '['.repeat(500_000), op: 'add', flag: 'read' });
      expectError(response, 'messages is nested too deeply (more than 32 levels)', { status: 400 });
    });
  });

  describe('rate limits', () => {
    let api: ApiTestClient;
    beforeAll(
      async () =>
        (api = await ApiTestClient.start({
          personas: ['iago', 'hamlet'],
          config: { rateLimits: { perUser: { requests: 5, windowSeconds: 60 }, perIp: { requests: 3, windowSeconds: 60 } } },
        })),
    );
    afterAll(() => api.close());

    it('answers the 6th request of a user in a window with 429 RATE_LIMIT_HIT, Retry-After and retry-after', async () => {
      for (let i = 0; i < 5; i++) {
        const ok = await api.as('hamlet').get('/api/v1/users/me');
        expectSuccess(ok);
        expect(ok.headers['x-ratelimit-limit']).toBe('5');
        expect(ok.headers['x-ratelimit-remaining']).toBe(String(4 - i));
      }
      const limited = await api.as('hamlet').get('/api/v1/users/me');
      const body = expectError(limited, 'API usage exceeded rate limit', { code: 'RATE_LIMIT_HIT', status: 429 });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(body['retry-after']).toBe(retryAfter);
    });

    it('counts each user separately', async () => {
      expectSuccess(await api.as('iago').get('/api/v1/users/me'));
    });

    it('limits unauthenticated endpoints per IP', async () => {
      for (let i = 0; i < 3; i++) expectSuccess(await api.http.get('/api/v1/server_settings'));
      const limited = await api.http.get('/api/v1/server_settings');
      expectError(limited, 'API usage exceeded rate limit', { code: 'RATE_LIMIT_HIT', status: 429 });
      expect(limited.headers['retry-after']).toBeDefined();
    });

    it('counts failed authentications per IP, so API keys cannot be guessed at speed', async () => {
      // The IP's budget is spent by the test above: a wrong key now gets 429, not 401.
      const response = await api.http.get('/api/v1/users/me').auth(api.user('hamlet').email, 'x'.repeat(32));
      expectError(response, 'API usage exceeded rate limit', { code: 'RATE_LIMIT_HIT', status: 429 });
    });
  });

  describe('logs', () => {
    it('never hold API keys, passwords or message content', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const logger = pino({ level: 'trace' }, sink);
      const api = await ApiTestClient.start({ personas: ['iago', 'hamlet'], logger });
      try {
        const secret = 'Secret launch code 7731-ALPHA';
        const { email, apiKey } = api.user('hamlet');
        await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([api.user('iago').userId]), content: secret });
        await api.as('hamlet').post('/api/v1/drafts', { drafts: JSON.stringify([{ type: '', to: [], topic: '', content: secret }]) });
        await api.http.get('/api/v1/users/me').auth(email, 'WRONG' + apiKey.slice(5));
        await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: email, password: 'hamlet-password' });
        await api.http.post('/api/v1/messages').set('Authorization', `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`).type('form').send('content=' + '%FF'.repeat(3) + secret);
        const { email: iagoEmail, apiKey: iagoKey } = api.user('iago');
        const uploaded = await api.http.post('/api/v1/user_uploads').auth(iagoEmail, iagoKey).attach('file', Buffer.from(secret), 'secret.txt');
        let temporaryToken = 'no-upload-endpoint';
        if (uploaded.status === 200) {
          const path = uploaded.body.url.replace(/^\/user_uploads\//, '');
          const { url } = expectSuccess(await api.as('iago').get(`/api/v1/user_uploads/${path}`));
          temporaryToken = /\/temporary\/([^/]+)\//.exec(url)![1];
          expect((await api.http.get(url)).status).toBe(200);
          // A streamed file's log line is written on 'finish', which can come after the client has the body.
          for (let i = 0; i < 100 && !lines.join('').includes('/user_uploads/temporary/'); i++) await new Promise((r) => setTimeout(r, 10));
        }
        const log = lines.join('');
        expect(log).not.toContain(temporaryToken);
        // Request logs name the route pattern, never the raw path with its token.
        if (uploaded.status === 200) expect(log).toContain('/user_uploads/temporary/:token/:file_name');
        expect(log.length).toBeGreaterThan(0);
        expect(log).not.toContain(apiKey);
        expect(log).not.toContain(apiKey.slice(5));
        expect(log).not.toContain('hamlet-password');
        expect(log).not.toContain(secret);
        expect(log).not.toContain('7731-ALPHA');
        expect(log).not.toContain(Buffer.from(`${email}:${apiKey}`).toString('base64'));
      } finally {
        await api.close();
      }
    });
  });
});
