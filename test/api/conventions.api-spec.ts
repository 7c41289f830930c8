import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * The conventions every /api/v1 route follows (spec R1–R5, Errors), through the real HTTP stack:
 * where parameters may travel, the envelopes, and the errors of routing and parsing.
 */
describe('API conventions', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['hamlet'] })));
  afterAll(() => api.close());

  describe('parameters', () => {
    it('are read from a form body (the Python bindings\' shape: JSON-encoded non-strings)', async () => {
      const body = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['message'], apply_markdown: true }));
      expect(body).not.toHaveProperty('ignored_parameters_unsupported');
    });

    it('are read from a multipart body (zulip-js sends every POST so)', async () => {
      const body = expectSuccess(await api.as('hamlet').postMultipart('/api/v1/register', { event_types: ['message'], bogus: 'x' }));
      expect(body.ignored_parameters_unsupported).toEqual(['bogus']);
    });

    it('are read from the query string, for any method', async () => {
      const { email, apiKey } = api.user('hamlet');
      const body = expectSuccess(await api.http.post('/api/v1/register?apply_markdown=true&zzz=1&aaa=2').auth(email, apiKey));
      expect(body.ignored_parameters_unsupported).toEqual(['aaa', 'zzz']);
    });

    it('name a typed parameter that is not valid JSON', async () => {
      expectError(await api.as('hamlet').post('/api/v1/register', { event_types: 'message' }), 'event_types is not valid JSON', { code: 'BAD_REQUEST' });
    });

    it('name a parameter of the wrong type, down to the element', async () => {
      expectError(await api.as('hamlet').post('/api/v1/register', { apply_markdown: 1 }), 'apply_markdown is not a boolean');
      expectError(await api.as('hamlet').post('/api/v1/register', { event_types: ['message', 3] }), 'event_types[1] is not a string');
      expectError(await api.as('hamlet').post('/api/v1/register', { event_types: { a: 1 } }), 'event_types is not a list');
    });
  });

  describe('success envelope', () => {
    it('has result and an empty msg, and the R5 constants on register', async () => {
      const body = expectSuccess(await api.as('hamlet').post('/api/v1/register'));
      expect(body).toMatchObject({
        result: 'success', msg: '', last_event_id: -1,
        max_message_length: 10000, max_topic_length: 60, max_channel_folder_name_length: 60,
        max_channel_folder_description_length: 1024, realm_empty_topic_display_name: 'general chat', max_file_upload_size_mib: 100,
      });
      expect(typeof body.queue_id).toBe('string');
      expect(typeof body.svc_feature_level).toBe('number');
      expect(body.svc_merge_base).toBe(body.svc_version);
      // The official clients read the zulip_* spellings (issue: compatibility with the official clients).
      expect(body).toMatchObject({ zulip_version: body.svc_version, zulip_feature_level: body.svc_feature_level, zulip_merge_base: body.svc_merge_base });
    });

    it('is also served for GET /register, as the spec names it', async () => {
      expectSuccess(await api.as('hamlet').get('/api/v1/register'));
    });

    it('is JSON in UTF-8 with the byte length of the body, also for non-ASCII text', async () => {
      const response = await api.as('hamlet').get('/api/v1/users/me', { 'ünïcödé_名前': 'x' });
      expect(expectSuccess(response).ignored_parameters_unsupported).toEqual(['ünïcödé_名前']);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text, 'utf8'));
      expect(response.text).toBe(JSON.stringify(response.body));
    });

    it('answers HEAD with the headers of GET and no body', async () => {
      const { email, apiKey } = api.user('hamlet');
      const get = await api.http.get('/api/v1/users/me').auth(email, apiKey);
      const head = await api.http.head('/api/v1/users/me').auth(email, apiKey);
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
      expect(head.text ?? '').toBe('');
    });
  });

  describe('routing errors', () => {
    it('answers an unknown route under /api/v1 with a 404 envelope', async () => {
      const response = await api.as('hamlet').get('/api/v1/no_such_endpoint');
      expectError(response, 'Not Found', { status: 404, code: 'BAD_REQUEST' });
    });

    it('matches paths case-sensitively: another spelling of a route is a 404, never the route without its authentication', async () => {
      for (const path of ['/API/V1/users/me', '/api/v1/Users/me', '/Api/v1/users/me/subscriptions']) {
        expectError(await api.http.get(path), 'Not Found', { status: 404, code: 'BAD_REQUEST' });
        expectError(await api.as('hamlet').get(path), 'Not Found', { status: 404, code: 'BAD_REQUEST' });
      }
      expectError(await api.http.post('/API/v1/messages').type('form').send({ type: 'stream', to: 'x', topic: 't', content: 'c' }), 'Not Found', { status: 404, code: 'BAD_REQUEST' });
    });

    it('answers a wrong method with 405 and the allowed methods (HEAD last where there is GET, as rest_dispatch), before authentication', async () => {
      const response = await api.http.delete('/api/v1/server_settings');
      expectError(response, 'Method Not Allowed', { status: 405 });
      expect(response.body.allowed_methods).toEqual(['GET', 'HEAD']);
      expect(response.headers.allow).toBe('GET, HEAD');
      const register = await api.http.put('/api/v1/register');
      expect(register.status).toBe(405);
      expect(register.body.allowed_methods).toEqual(['GET', 'POST', 'HEAD']);
      const typing = await api.http.get('/api/v1/typing');
      expectError(typing, 'Method Not Allowed', { status: 405 });
      expect(typing.body.allowed_methods).toEqual(['POST']);
      // HEAD is served where it is listed.
      expect((await api.http.head('/api/v1/server_settings')).status).toBe(200);
    });

    it('refuses an oversized body with 413 in the envelope', async () => {
      const response = await api.as('hamlet').post('/api/v1/register', { narrow: 'x'.repeat(3 * 1024 * 1024) });
      expectError(response, 'Request body too large', { status: 413 });
    });

    it('refuses a malformed multipart body with 400', async () => {
      const { email, apiKey } = api.user('hamlet');
      const response = await api.http
        .post('/api/v1/register')
        .auth(email, apiKey)
        .set('Content-Type', 'multipart/form-data; boundary=XYZ')
        .send('--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated');
      expectError(response, 'Malformed request body', { status: 400 });
    });

    it('tags every response with a request id', async () => {
      const response = await api.http.get('/api/v1/server_settings').set('X-Request-Id', 'abc-123');
      expect(response.headers['x-request-id']).toBe('abc-123');
    });
  });
});
