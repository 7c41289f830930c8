import { expectError, expectSuccess, type EnvelopeResponse } from './zulip-envelope';

type Params = Record<string, unknown>;

/**
 * What the persona helpers need of an HTTP test client: test/support's ApiTestClient has it. A
 * structural type, so this library (which every layer's specs use) does not import the apps.
 */
export type PersonaClient = {
  user(name: string): { userId: number };
  /** What was appended to the event log since the client's mark. */
  newEvents(): Promise<unknown[]>;
  as(name: string): {
    get(path: string, query?: Params): PromiseLike<EnvelopeResponse>;
    post(path: string, body?: Params): PromiseLike<EnvelopeResponse>;
  };
};

/**
 * The requests API specs make again and again, as a persona, each asserting Zulip's success
 * envelope. `client` is read at each call, so a spec whose client starts in `beforeEach` writes
 * `const { id, send, register, events } = personaHelpers(() => api);` once at the top.
 */
export function personaHelpers(client: () => PersonaClient) {
  /** A persona's user id. */
  const id = (name: string): number => client().user(name).userId;

  /** POST /messages as `who` with the given parameters; the new message's id. */
  const send = async (who: string, message: Params): Promise<number> =>
    expectSuccess(await client().as(who).post('/api/v1/messages', message)).id as number;

  /** A channel message (`type: 'stream'`) as `who`; its id. */
  const sendToChannel = (who: string, to: string | number, topic: string, content: string): Promise<number> =>
    send(who, { type: 'stream', to, topic, content });

  /** POST /users/me/subscriptions as `who`: the channels by name, for `principals` (personas) when given. */
  const subscribe = async (who: string, channels: string | string[], principals?: string[], options: Params = {}): Promise<Record<string, any>> =>
    expectSuccess(
      await client().as(who).post('/api/v1/users/me/subscriptions', {
        subscriptions: (typeof channels === 'string' ? [channels] : channels).map((name) => ({ name })),
        ...(principals ? { principals: principals.map(id) } : {}),
        ...options,
      }),
    );

  /**
   * Creates (or joins) channel `name` as `who` (POST /users/me/subscriptions with `params`: principals as
   * user ids, invite_only, …); its id, as `who` reads it (GET /get_stream_id), or, with `lookUpAs` (an
   * administrator, for a channel `who` may not see), from that persona's GET /streams?include_all.
   */
  const createChannel = async (who: string, name: string, params: Params = {}, options: { lookUpAs?: string } = {}): Promise<number> => {
    expectSuccess(await client().as(who).post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }], ...params }));
    if (options.lookUpAs === undefined) return expectSuccess(await client().as(who).get('/api/v1/get_stream_id', { stream: name })).stream_id as number;
    const { streams } = expectSuccess(await client().as(options.lookUpAs).get('/api/v1/streams', { include_all: true }));
    return (streams as { name: string; stream_id: number }[]).find((s) => s.name === name)!.stream_id;
  };

  /** POST /register as `who`: the whole answer. */
  const register = async (who: string, params: Params = {}): Promise<Record<string, any>> =>
    expectSuccess(await client().as(who).post('/api/v1/register', params));

  /** POST /register as `who` for these event types (and any other parameters): the queue id. */
  const queue = async (who: string, eventTypes: string[], params: Params = {}): Promise<string> =>
    (await register(who, { event_types: eventTypes, ...params })).queue_id as string;

  /** GET /events as `who` (without blocking unless told): the queue's events after `lastEventId` (default: all). */
  const events = async (who: string, queueId: string, lastEventId = -1, dontBlock = true): Promise<any[]> =>
    expectSuccess(await client().as(who).get('/api/v1/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: dontBlock })).events as any[];

  /** A refusal in Zulip's words (expectError) that appended nothing since the mark; the error body. */
  const refused = async (response: EnvelopeResponse, msg: string, options: { code?: string; status?: number } = {}): Promise<Record<string, any>> => {
    const body = expectError(response, msg, options);
    expect(await client().newEvents()).toEqual([]);
    return body;
  };

  return { id, refused, send, sendToChannel, subscribe, createChannel, register, queue, events };
}
