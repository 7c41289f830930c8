import { execFileSync } from 'node:child_process';
import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { TINY_PNG } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';
import { listApiRoutes } from '../../apps/api/src/openapi/api-routes';
import { openApiPath } from '../../apps/api/src/openapi/openapi-document';
import { RESPONSE_SCHEMAS } from '../../apps/api/src/openapi/response-schemas';

/**
 * The OpenAPI document (/api/v1/openapi.json) and its reference page (/api/docs), issue #22: valid
 * OpenAPI 3.1 by a validator library, every route the server serves described, response schemas
 * for the specification's endpoints that real answers match.
 */
jest.setTimeout(60_000);

/** The endpoints of the API specification (../shared/spec/team-chat-api.md, "Endpoints"), as routes. */
const SPEC_ENDPOINTS = [
  'POST /api/v1/messages',
  'POST /api/v1/scheduled_messages',
  'PATCH /api/v1/messages/:message_id',
  'PATCH /api/v1/settings',
  'POST /api/v1/users/me/subscriptions/properties',
  'PATCH /api/v1/users/me/subscriptions/:stream_id',
  'POST /api/v1/channel_folders/create',
  'GET /api/v1/channel_folders',
  'POST /api/v1/realm/profile_fields',
  'POST /api/v1/users/:user_id/status',
  'POST /api/v1/mobile_push/register',
  'POST /api/v1/messages/flags/narrow',
  'POST /api/v1/mark_topic_as_read',
  'POST /api/v1/mark_stream_as_read',
  'PATCH /api/v1/saved_snippets/:saved_snippet_id',
  'POST /api/v1/dev_fetch_api_key',
  'DELETE /api/v1/bot_storage',
  'GET /api/v1/drafts',
  'DELETE /api/v1/users/me/muted_users/:muted_user_id',
  'DELETE /api/v1/realm/emoji/:emoji_name',
  'POST /api/v1/user_uploads',
  'GET /api/v1/server_settings',
];

type Schema = Record<string, any>;

/**
 * Checks a value against the JSON Schema subset the document's response schemas use ($ref into
 * components, allOf, type, enum, const, properties, required, items, additionalProperties).
 */
function schemaErrors(document: Schema, schema: Schema, value: unknown, at = '$'): string[] {
  if (schema.$ref) return schemaErrors(document, (schema.$ref as string).split('/').slice(1).reduce((o: Schema, k: string) => o[k], document), value, at);
  const errors: string[] = [];
  for (const part of schema.allOf ?? []) errors.push(...schemaErrors(document, part, value, at));
  const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
  if (schema.type) {
    const types = ([] as string[]).concat(schema.type);
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) return [...errors, `${at}: ${actual}, expected ${types.join(' or ')}`];
  }
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && schema.const !== value) errors.push(`${at}: ${JSON.stringify(value)}, expected ${JSON.stringify(schema.const)}`);
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) errors.push(`${at}.${key}: missing`);
    for (const [key, v] of Object.entries(object)) {
      if (schema.properties?.[key]) errors.push(...schemaErrors(document, schema.properties[key], v, `${at}.${key}`));
      else if (typeof schema.additionalProperties === 'object') errors.push(...schemaErrors(document, schema.additionalProperties, v, `${at}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${key}: not allowed`);
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, i) => errors.push(...schemaErrors(document, schema.items, item, `${at}[${i}]`)));
  return errors;
}

describe('the OpenAPI document', () => {
  let api: ApiTestClient;
  let document: Schema;
  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'desdemona'], config: { env: 'development' } });
    const response = await api.http.get('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(() => api.close());

  const operation = (key: string) => {
    const [method, path] = key.split(' ');
    return document.paths[openApiPath(path)]?.[method.toLowerCase()];
  };

  it('is valid OpenAPI 3.1 according to @seriousme/openapi-schema-validator', () => {
    // The validator is an ES module: it runs in a child Node process, the document on its stdin.
    const script = `
      import { Validator } from '@seriousme/openapi-schema-validator';
      let text = '';
      for await (const chunk of process.stdin) text += chunk;
      const validator = new Validator();
      const result = await validator.validate(JSON.parse(text));
      process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
    `;
    const validate = (doc: object) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(doc), cwd: process.cwd(), encoding: 'utf8' }));
    expect(validate(document)).toEqual({ valid: true, version: '3.1', errors: null });
    // The validator does refuse a broken document (a path parameter without `required`).
    const broken = structuredClone(document);
    delete broken.paths['/api/v1/messages/{message_id}'].get.parameters[0].required;
    expect(validate(broken)).toMatchObject({ valid: false });
  });

  it('describes every route the server serves, and nothing else', () => {
    const described = Object.entries<Record<string, unknown>>(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    // Express's own router: every route registered, whatever the controller.
    const router = (api.app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router;
    const served = router.stack.flatMap((layer) =>
      layer.route ? Object.keys(layer.route.methods).filter((m) => m !== '_all').map((m) => `${m.toUpperCase()} ${openApiPath(layer.route!.path)}`) : [],
    );
    expect(served.length).toBeGreaterThan(100);
    expect([...new Set(described)].sort()).toEqual([...new Set(served)].sort());
    // The API's routes (authorization matrix, fuzzer) are all in it, with their parameters.
    for (const route of listApiRoutes(api.app)) {
      const op = operation(`${route.method} ${route.path}`);
      expect({ route: `${route.method} ${route.path}`, described: !!op }).toEqual({ route: `${route.method} ${route.path}`, described: true });
      for (const name of route.pathParams) expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: 'path' }));
    }
    expect(operation('GET /metrics')).toMatchObject({ tags: ['Outside the API'], security: [] });
    expect(operation('GET /api/docs')).toBeDefined();
    expect(operation('GET /svc/console')).toBeDefined();
  });

  it("has a response schema for each of the specification's endpoints", () => {
    for (const key of SPEC_ENDPOINTS) {
      expect({ key, own: key in RESPONSE_SCHEMAS }).toEqual({ key, own: true });
      const schema = operation(key)?.responses?.[200]?.content?.['application/json']?.schema;
      expect({ key, schema }).toEqual({ key, schema: { allOf: [{ $ref: '#/components/schemas/JsonSuccess' }, RESPONSE_SCHEMAS[key]] } });
    }
    expect(document.components.schemas.Draft.required).toEqual(['id', 'type', 'to', 'topic', 'content', 'timestamp']);
  });

  it("matches real answers of the specification's endpoints", async () => {
    const matches = (key: string, body: unknown) => {
      const schema = operation(key).responses[200].content['application/json'].schema;
      expect({ key, errors: schemaErrors(document, schema, body) }).toEqual({ key, errors: [] });
    };
    // A schema that cannot fail would prove nothing.
    expect(schemaErrors(document, operation('GET /api/v1/drafts').responses[200].content['application/json'].schema, { result: 'success', msg: '', count: '1', drafts: [{ id: 1 }] })).toEqual(
      expect.arrayContaining(['$.count: string, expected integer', '$.drafts[0].content: missing']),
    );

    const hamlet = api.as('hamlet');
    const iago = api.as('iago');
    expectSuccess(await hamlet.post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }], principals: [api.user('hamlet').userId, api.user('cordelia').userId] }));
    const streams = expectSuccess(await iago.get('/api/v1/streams', { include_all: true })).streams as { name: string; stream_id: number }[];
    const verona = streams.find((s) => s.name === 'Verona')!.stream_id;

    const sent = expectSuccess(await hamlet.post('/api/v1/messages', { type: 'stream', to: verona, topic: 'schemas', content: 'hello' }));
    matches('POST /api/v1/messages', sent);
    matches('PATCH /api/v1/messages/:message_id', expectSuccess(await hamlet.patch(`/api/v1/messages/${sent.id}`, { content: 'hello again' })));
    matches('POST /api/v1/scheduled_messages', expectSuccess(await hamlet.post('/api/v1/scheduled_messages', { type: 'stream', to: verona, topic: 'later', content: 'x', scheduled_delivery_timestamp: Math.floor(api.clock.now().getTime() / 1000) + 3600 })));
    matches('POST /api/v1/messages/flags/narrow', expectSuccess(await hamlet.post('/api/v1/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 10, narrow: [], op: 'add', flag: 'starred' })));
    matches('POST /api/v1/mark_stream_as_read', expectSuccess(await hamlet.post('/api/v1/mark_stream_as_read', { stream_id: verona })));
    matches('POST /api/v1/mark_topic_as_read', expectSuccess(await hamlet.post('/api/v1/mark_topic_as_read', { stream_id: verona, topic_name: 'schemas' })));
    matches('PATCH /api/v1/users/me/subscriptions/:stream_id', expectSuccess(await hamlet.patch(`/api/v1/users/me/subscriptions/${verona}`, { property: 'pin_to_top', value: true })));
    matches('POST /api/v1/users/me/subscriptions/properties', expectSuccess(await hamlet.post('/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: verona, property: 'color', value: '#aabbcc' }] })));
    matches('PATCH /api/v1/settings', expectSuccess(await hamlet.patch('/api/v1/settings', { twenty_four_hour_time: true })));

    expectSuccess(await hamlet.post('/api/v1/drafts', { drafts: [{ type: 'stream', to: [verona], topic: 'draft', content: 'unsent' }] }));
    matches('GET /api/v1/drafts', expectSuccess(await hamlet.get('/api/v1/drafts')));

    matches('POST /api/v1/channel_folders/create', expectSuccess(await iago.post('/api/v1/channel_folders/create', { name: 'Frontend', description: 'UI work' })));
    matches('GET /api/v1/channel_folders', expectSuccess(await iago.get('/api/v1/channel_folders')));
    matches('POST /api/v1/realm/profile_fields', expectSuccess(await iago.post('/api/v1/realm/profile_fields', { name: 'Team', hint: '', field_type: 1 })));
    matches('POST /api/v1/users/:user_id/status', expectSuccess(await iago.post(`/api/v1/users/${api.user('hamlet').userId}/status`, { status_text: 'on leave' })));

    const snippet = expectSuccess(await hamlet.post('/api/v1/saved_snippets', { title: 'Hi', content: 'Hello' }));
    matches('PATCH /api/v1/saved_snippets/:saved_snippet_id', expectSuccess(await hamlet.patch(`/api/v1/saved_snippets/${snippet.saved_snippet_id}`, { title: 'Hello' })));
    expectSuccess(await hamlet.post(`/api/v1/users/me/muted_users/${api.user('cordelia').userId}`));
    matches('DELETE /api/v1/users/me/muted_users/:muted_user_id', expectSuccess(await hamlet.delete(`/api/v1/users/me/muted_users/${api.user('cordelia').userId}`)));

    const upload = await api.http.post('/api/v1/user_uploads').auth(api.user('hamlet').email, api.user('hamlet').apiKey).attach('file', Buffer.from('some text'), 'notes.txt');
    matches('POST /api/v1/user_uploads', expectSuccess(upload));
    matches('GET /api/v1/server_settings', expectSuccess(await api.http.get('/api/v1/server_settings')));
    const key = await api.http.post('/api/v1/dev_fetch_api_key').type('form').send({ username: api.user('cordelia').email });
    matches('POST /api/v1/dev_fetch_api_key', expectSuccess(key));

    const emojiUpload = await api.http.post('/api/v1/realm/emoji/team_badge').auth(api.user('hamlet').email, api.user('hamlet').apiKey).attach('f1', TINY_PNG, 'team_badge.png');
    expectSuccess(emojiUpload);
    matches('DELETE /api/v1/realm/emoji/:emoji_name', expectSuccess(await hamlet.delete('/api/v1/realm/emoji/team_badge')));
    const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Helper', shortName: 'helper', ownerId: api.user('hamlet').userId }));
    api.credentials.set('helper', { userId: bot.userId, email: bot.email, apiKey: bot.apiKey });
    expectSuccess(await api.as('helper').put('/api/v1/bot_storage', { storage: { k: 'v' } }));
    matches('DELETE /api/v1/bot_storage', expectSuccess(await api.as('helper').delete('/api/v1/bot_storage', { keys: ['k'] })));
    // POST /mobile_push/register needs a push service (PUSH_NOTIFICATIONS_BOUNCER_URL): its schema is the envelope alone.
  });
});

describe('GET /api/docs', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['hamlet'] })));
  afterAll(() => api.close());

  it('is an HTML page rendering /api/v1/openapi.json with Swagger UI served by this server (no CDN)', async () => {
    const page = await api.http.get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).toContain('<div id="swagger-ui"></div>');
    // Every script and style is this server's own.
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(['/api/docs/favicon-32x32.png', '/api/docs/swagger-ui.css', '/api/docs/swagger-ui-bundle.js', '/api/docs/init.js']);
    const init = await api.http.get('/api/docs/init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain("url: '/api/v1/openapi.json'");
    const bundle = await api.http.get('/api/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bundle.text).toContain('SwaggerUIBundle');
    const css = await api.http.get('/api/docs/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('serves nothing else from the package', async () => {
    for (const file of ['package.json', 'index.js', '..%2F..%2Fpackage.json', 'swagger-ui.js']) {
      const response = await api.http.get(`/api/docs/${file}`);
      expect({ file, status: response.status }).toEqual({ file, status: 404 });
    }
  });
});
