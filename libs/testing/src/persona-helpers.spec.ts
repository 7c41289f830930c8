import { personaHelpers, type PersonaClient } from './persona-helpers';

/** A client that records each request and answers from a script, as ApiTestClient would over HTTP. */
function fakeClient(answer: (method: string, path: string, params: Record<string, unknown>) => { status: number; body: any }) {
  const requests: [string, string, string, Record<string, unknown>][] = [];
  let appended: unknown[] = [];
  const client: PersonaClient = {
    user: (name) => ({ userId: { hamlet: 10, cordelia: 11 }[name] ?? 0 }),
    newEvents: async () => appended,
    as: (who) => ({
      get: async (path, query = {}) => (requests.push([who, 'GET', path, query]), answer('GET', path, query)),
      post: async (path, body = {}) => (requests.push([who, 'POST', path, body]), answer('POST', path, body)),
    }),
  };
  return { client, requests, append: (events: unknown[]) => (appended = events) };
}
const ok = (body: Record<string, unknown> = {}) => ({ status: 200, body: { result: 'success', msg: '', ...body } });

describe('personaHelpers', () => {
  it('sends as a persona and answers the new message id', async () => {
    const { client, requests } = fakeClient(() => ok({ id: 42 }));
    const { send, sendToChannel } = personaHelpers(() => client);
    expect(await send('hamlet', { type: 'direct', to: [11], content: 'hi' })).toBe(42);
    expect(await sendToChannel('cordelia', 'Denmark', 'plans', 'hello')).toBe(42);
    expect(requests).toEqual([
      ['hamlet', 'POST', '/api/v1/messages', { type: 'direct', to: [11], content: 'hi' }],
      ['cordelia', 'POST', '/api/v1/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'hello' }],
    ]);
  });

  it('subscribes personas by name and creates a channel, answering its id', async () => {
    const { client, requests } = fakeClient((_m, path) => (path === '/api/v1/get_stream_id' ? ok({ stream_id: 7 }) : ok()));
    const { subscribe, createChannel } = personaHelpers(() => client);
    await subscribe('hamlet', 'Denmark', ['hamlet', 'cordelia']);
    expect(await createChannel('cordelia', 'Verona', { invite_only: true })).toBe(7);
    expect(requests).toEqual([
      ['hamlet', 'POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [10, 11] }],
      ['cordelia', 'POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }], invite_only: true }],
      ['cordelia', 'GET', '/api/v1/get_stream_id', { stream: 'Verona' }],
    ]);
  });

  it("with lookUpAs, finds the new channel's id in that persona's GET /streams?include_all", async () => {
    const streams = [{ name: 'Denmark', stream_id: 3 }, { name: 'Verona', stream_id: 8 }];
    const { client, requests } = fakeClient((_m, path) => (path === '/api/v1/streams' ? ok({ streams }) : ok()));
    const { createChannel } = personaHelpers(() => client);
    expect(await createChannel('hamlet', 'Verona', { principals: [11] }, { lookUpAs: 'iago' })).toBe(8);
    expect(requests.slice(1)).toEqual([['iago', 'GET', '/api/v1/streams', { include_all: true }]]);
  });

  it('registers a queue and reads its events without blocking', async () => {
    const { client, requests } = fakeClient((_m, path) => (path === '/api/v1/register' ? ok({ queue_id: 'q1' }) : ok({ events: [{ id: 0, type: 'heartbeat' }] })));
    const { queue, events } = personaHelpers(() => client);
    expect(await queue('hamlet', ['message'], { apply_markdown: false })).toBe('q1');
    expect(await events('hamlet', 'q1')).toEqual([{ id: 0, type: 'heartbeat' }]);
    await events('hamlet', 'q1', 3, false);
    expect(requests.slice(1)).toEqual([
      ['hamlet', 'GET', '/api/v1/events', { queue_id: 'q1', last_event_id: -1, dont_block: true }],
      ['hamlet', 'GET', '/api/v1/events', { queue_id: 'q1', last_event_id: 3, dont_block: false }],
    ]);
    expect(requests[0]).toEqual(['hamlet', 'POST', '/api/v1/register', { event_types: ['message'], apply_markdown: false }]);
  });

  it('reads the client when called, so a client started in beforeEach is the one used', () => {
    let current = fakeClient(() => ok()).client;
    const { id } = personaHelpers(() => current);
    expect(id('hamlet')).toBe(10);
    current = { ...current, user: () => ({ userId: 99 }) };
    expect(id('hamlet')).toBe(99);
  });

  it('fails on an error envelope, and refused fails when something was appended', async () => {
    const { client, append } = fakeClient(() => ({ status: 400, body: { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' } }));
    const { send, refused } = personaHelpers(() => client);
    await expect(send('hamlet', {})).rejects.toThrow('expected success, got 400');
    const response = await client.as('hamlet').post('/api/v1/messages');
    expect(await refused(response, 'Invalid channel ID', { code: 'BAD_REQUEST' })).toMatchObject({ msg: 'Invalid channel ID' });
    await expect(refused(response, 'Another message')).rejects.toThrow();
    append([{ type: 'MessageSent' }]);
    await expect(refused(response, 'Invalid channel ID')).rejects.toThrow();
  });
});
