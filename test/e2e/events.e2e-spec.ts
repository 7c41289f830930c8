import type { AddressInfo } from 'node:net';
import { ApiTestClient } from '../support';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const zulipInit: (config: { username: string; apiKey: string; realm: string }) => Promise<any> = require('zulip-js');

/**
 * Issue #10: one client's send wakes another client's long poll, through a real listening HTTP
 * server (real sockets, real keep-alive), with plain HTTP and with the official JavaScript client.
 */
describe('real-time events over a real HTTP server', () => {
  let api: ApiTestClient;
  let siteUrl: string;

  beforeAll(async () => {
    api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia'] });
    await api.app.listen(0, '127.0.0.1');
    const { port } = api.app.getHttpServer().address() as AddressInfo;
    siteUrl = `http://127.0.0.1:${port}`;
    const response = await call('hamlet', 'POST', '/api/v1/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'Elsinore' }]),
      principals: JSON.stringify([api.user('hamlet').userId, api.user('cordelia').userId]),
    });
    expect(response.result).toBe('success');
  });

  afterAll(async () => {
    await api?.close();
  });

  async function call(who: string, method: string, path: string, params: Record<string, string> = {}): Promise<any> {
    const { email, apiKey } = api.user(who);
    const headers = { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` };
    const query = new URLSearchParams(params).toString();
    const response =
      method === 'GET' || method === 'DELETE'
        ? await fetch(`${siteUrl}${path}?${query}`, { method, headers })
        : await fetch(`${siteUrl}${path}`, { method, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: query });
    return response.json();
  }

  it('a send wakes the recipient\'s waiting long poll, and the sender\'s queue gets local_message_id', async () => {
    const cordelia = await call('cordelia', 'POST', '/api/v1/register', { event_types: '["message"]' });
    const hamlet = await call('hamlet', 'POST', '/api/v1/register', { event_types: '["message"]' });
    expect(cordelia.result).toBe('success');

    // The poll is on the wire, waiting, before the message exists.
    let answered = false;
    const poll = call('cordelia', 'GET', '/api/v1/events', { queue_id: cordelia.queue_id, last_event_id: '-1' }).then((body) => {
      answered = true;
      return body;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);

    const sent = await call('hamlet', 'POST', '/api/v1/messages', {
      type: 'stream', to: 'Elsinore', topic: 'ghosts', content: 'Who\'s there?', queue_id: hamlet.queue_id, local_id: '1.01',
    });
    expect(sent.result).toBe('success');
    const woken = await poll;
    expect(woken).toMatchObject({ result: 'success', events: [{ id: 0, type: 'message', message: { id: sent.id, content: '<p>Who\'s there?</p>' } }] });
    expect(woken.events[0]).not.toHaveProperty('local_message_id');

    const own = await call('hamlet', 'GET', '/api/v1/events', { queue_id: hamlet.queue_id, last_event_id: '-1', dont_block: 'true' });
    expect(own.events).toEqual([expect.objectContaining({ type: 'message', local_message_id: '1.01' })]);

    expect((await call('cordelia', 'DELETE', '/api/v1/events', { queue_id: cordelia.queue_id })).result).toBe('success');
    expect(await call('cordelia', 'GET', '/api/v1/events', { queue_id: cordelia.queue_id, last_event_id: '-1', dont_block: 'true' })).toMatchObject({
      result: 'error', code: 'BAD_EVENT_QUEUE_ID', queue_id: cordelia.queue_id,
    });
  });

  /**
   * The loop of the Python bindings' call_on_each_event (python-zulip-api zulip/__init__.py),
   * transcribed: register; get_events from last_event_id; on BAD_EVENT_QUEUE_ID (a queue that
   * expired, or lives on another API instance) register again and go on; every event's id moves
   * last_event_id; heartbeats are events like the others. (It polls with dont_block here so that
   * the test sets the pace; the bindings long-poll.)
   */
  it('a call_on_each_event loop survives its queue disappearing (re-registers on BAD_EVENT_QUEUE_ID)', async () => {
    const seen: string[] = [];
    let registrations = 0;
    let queueId: string | null = null;
    let lastEventId = -1;
    const loop = async (until: () => boolean) => {
      while (!until()) {
        if (queueId === null) {
          const res = await call('cordelia', 'POST', '/api/v1/register', { event_types: '["message"]' });
          registrations++;
          queueId = res.queue_id;
          lastEventId = res.last_event_id;
        }
        const res = await call('cordelia', 'GET', '/api/v1/events', { queue_id: queueId!, last_event_id: String(lastEventId), dont_block: 'true' });
        if (res.result === 'error') {
          if (res.code === 'BAD_EVENT_QUEUE_ID') queueId = null;
          else throw new Error(res.msg);
          continue;
        }
        for (const event of res.events) {
          lastEventId = Math.max(lastEventId, event.id);
          if (event.type === 'message') seen.push(event.message.content);
        }
        if (res.events.length === 0) await new Promise((r) => setTimeout(r, 10));
      }
    };
    await loop(() => queueId !== null);
    const send = (content: string) => call('hamlet', 'POST', '/api/v1/messages', { type: 'stream', to: 'Elsinore', topic: 'loop', content });
    await send('before');
    await loop(() => seen.length >= 1);
    // The queue goes away (as when another instance answers, or it expired).
    expect((await call('cordelia', 'DELETE', '/api/v1/events', { queue_id: queueId! })).result).toBe('success');
    await loop(() => queueId === null);
    await loop(() => queueId !== null);
    await send('after');
    await loop(() => seen.length >= 2);
    expect(seen).toEqual(['<p>before</p>', '<p>after</p>']);
    expect(registrations).toBe(2);
  });

  it('the official JavaScript client registers a queue and retrieves events with its own calls', async () => {
    const client = (name: string) => zulipInit({ username: api.user(name).email, apiKey: api.user(name).apiKey, realm: siteUrl });
    const cordelia = await client('cordelia');
    const hamlet = await client('hamlet');
    const queue = await cordelia.queues.register({ event_types: ['message'] });
    expect(queue.result).toBe('success');
    const retrieved = cordelia.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1, dont_block: false });
    await new Promise((r) => setTimeout(r, 50));
    await hamlet.messages.send({ type: 'stream', to: 'Elsinore', topic: 'ghosts', content: 'Stand, and unfold yourself.' });
    const events = await retrieved;
    expect(events).toMatchObject({ result: 'success', events: [{ type: 'message', message: { content: '<p>Stand, and unfold yourself.</p>' } }] });
    expect((await cordelia.queues.deregister({ queue_id: queue.queue_id })).result).toBe('success');
  });
});
