import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand, DeactivateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient } from '@app/testing';
import type { Response } from 'supertest';

/**
 * Who may call what (spec A1–A7, Zulip's decorators): every endpoint × every kind of caller, with
 * the outcome each must get. Each area adds its rows here as it lands. 0 unauthorized successes.
 */
type Caller = 'anonymous' | 'bad_key' | 'deactivated' | 'guest' | 'member' | 'moderator' | 'administrator' | 'owner' | 'bot';
const CALLERS: Caller[] = ['anonymous', 'bad_key', 'deactivated', 'guest', 'member', 'moderator', 'administrator', 'owner', 'bot'];
const PERSONA: Partial<Record<Caller, string>> = {
  deactivated: 'cordelia', guest: 'polonius', member: 'hamlet', moderator: 'shiva', administrator: 'iago', owner: 'desdemona', bot: 'bot',
};

/** ok: success; 401: credential failure; admin / owner / human / guest: the refusal of that guard; no_channel / not_channel_admin: Zulip's channel access refusals. */
type Outcome = 'ok' | 401 | 'admin' | 'owner' | 'human' | 'no_guest' | 'no_channel' | 'not_channel_admin';
const AUTHENTICATED: Caller[] = ['guest', 'member', 'moderator', 'administrator', 'owner', 'bot'];

type Row = {
  name: string;
  send: (api: ApiTestClient, as: (req: ReturnType<ApiTestClient['http']['get']>) => typeof req, caller: Caller) => Promise<Response>;
  /** Outcome by caller; callers not listed get 401 (or 'ok' for public endpoints). */
  outcomes: Partial<Record<Caller, Outcome>>;
  public?: boolean;
};

const everyone = (outcome: Outcome): Partial<Record<Caller, Outcome>> => Object.fromEntries(AUTHENTICATED.map((c) => [c, outcome]));
const adminsOnly = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('admin'), administrator: 'ok', owner: 'ok' });

const form = (req: ReturnType<ApiTestClient['http']['post']>, body: Record<string, string>) => req.type('form').send(body);

/** A channel created by Iago for one row and caller; public ones include the guest, so only access differs. */
const channelFor = async (api: ApiTestClient, name: string, options: { private?: boolean } = {}): Promise<number> => {
  const principals = options.private ? [api.user('iago').userId] : [api.user('iago').userId, api.user('polonius').userId];
  await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }], principals, invite_only: options.private === true });
  return (await api.as('iago').get('/api/v1/get_stream_id', { stream: name })).body.stream_id;
};
/** Channel administration: administrators of the organization (and the channel's creator, not among the callers). */
const channelAdmins = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('not_channel_admin'), guest: 'no_channel', administrator: 'ok', owner: 'ok' });
/** Reading a public channel the guest is not in: everyone but guests. */
const nonGuests = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('ok'), guest: 'no_channel' });

const CHANNEL_ROWS: Row[] = [
  { name: 'GET /users/me/subscriptions', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/users/me/subscriptions')) },
  {
    name: 'POST /users/me/subscriptions',
    outcomes: { ...everyone('ok'), guest: 'no_guest' },
    send: (api, as, caller) => form(as(api.http.post('/api/v1/users/me/subscriptions')), { subscriptions: JSON.stringify([{ name: `joined by ${caller}` }]) }),
  },
  {
    name: 'DELETE /users/me/subscriptions',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      await channelFor(api, `left by ${caller}`);
      return as(api.http.delete('/api/v1/users/me/subscriptions')).query({ subscriptions: JSON.stringify([`left by ${caller}`]) });
    },
  },
  { name: 'GET /streams', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/streams')) },
  { name: 'GET /streams/{id}', outcomes: everyone('ok'), send: async (api, as, caller) => as(api.http.get(`/api/v1/streams/${await channelFor(api, `read by ${caller}`)}`)) },
  {
    name: 'GET /streams/{id} (private)',
    outcomes: { ...everyone('no_channel'), administrator: 'ok', owner: 'ok' },
    send: async (api, as, caller) => as(api.http.get(`/api/v1/streams/${await channelFor(api, `private read by ${caller}`, { private: true })}`)),
  },
  {
    name: 'GET /get_stream_id',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      await channelFor(api, `named by ${caller}`);
      return as(api.http.get('/api/v1/get_stream_id')).query({ stream: `named by ${caller}` });
    },
  },
  {
    name: 'PATCH /streams/{id}',
    outcomes: channelAdmins(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `renamed by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`renamed by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return form(as(api.http.patch(`/api/v1/streams/${channelId}`)), { description: `Described by ${caller}` });
    },
  },
  {
    name: 'DELETE /streams/{id}',
    outcomes: channelAdmins(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `archived by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`archived by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return as(api.http.delete(`/api/v1/streams/${channelId}`));
    },
  },
  {
    name: 'GET /streams/{id}/members',
    outcomes: nonGuests(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `counted by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`counted by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return as(api.http.get(`/api/v1/streams/${channelId}/members`));
    },
  },
  {
    name: 'GET /users/me/{stream_id}/topics',
    outcomes: nonGuests(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `topics of ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`topics of ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return as(api.http.get(`/api/v1/users/me/${channelId}/topics`));
    },
  },
];

const ROWS: Row[] = [
  { name: 'GET /server_settings', public: true, outcomes: {}, send: (api, as) => as(api.http.get('/api/v1/server_settings')) },
  { name: 'GET /openapi.json', public: true, outcomes: {}, send: (api, as) => as(api.http.get('/api/v1/openapi.json')) },
  { name: 'POST /register', outcomes: everyone('ok'), send: (api, as) => as(api.http.post('/api/v1/register')) },
  { name: 'GET /users', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/users')) },
  { name: 'GET /users/me', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/users/me')) },
  { name: 'GET /users/{id}', outcomes: everyone('ok'), send: (api, as) => as(api.http.get(`/api/v1/users/${api.user('hamlet').userId}`)) },
  {
    name: 'POST /users',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/users')), { email: `made-by-${caller}@acme.test`, password: 'long-enough', full_name: `Made By ${caller}` }),
  },
  {
    name: 'PATCH /users/{id}',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.patch(`/api/v1/users/${api.user('hamlet').userId}`)), { full_name: `Renamed by ${caller}` }),
  },
  {
    name: 'DELETE /users/{id}',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => {
      const { user_id } = (await api.as('iago').post('/api/v1/users', { email: `victim-${caller}@acme.test`, password: 'long-enough', full_name: `Victim ${caller}` })).body;
      return as(api.http.delete(`/api/v1/users/${user_id}`));
    },
  },
  {
    name: 'POST /users/{id}/reactivate',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => {
      const { user_id } = (await api.as('iago').post('/api/v1/users', { email: `revived-${caller}@acme.test`, password: 'long-enough', full_name: `Revived ${caller}` })).body;
      await api.as('iago').delete(`/api/v1/users/${user_id}`);
      return as(api.http.post(`/api/v1/users/${user_id}/reactivate`));
    },
  },
  {
    name: 'POST /bots',
    outcomes: { ...everyone('ok'), guest: 'no_guest', bot: 'human' },
    send: (api, as, caller) => form(as(api.http.post('/api/v1/bots')), { full_name: `Bot of ${caller}`, short_name: `b-${caller}` }),
  },
  { name: 'GET /bots', outcomes: { ...everyone('ok'), bot: 'human' }, send: (api, as) => as(api.http.get('/api/v1/bots')) },
  ...CHANNEL_ROWS,
];

const EXPECTED_MESSAGE: Record<Exclude<Outcome, 'ok' | 401>, string> = {
  admin: 'Must be an organization administrator',
  owner: 'Must be an organization owner',
  human: 'This endpoint does not accept bot requests.',
  no_guest: 'Not allowed for guest users',
  no_channel: 'Invalid channel ID',
  not_channel_admin: 'You do not have permission to administer this channel.',
};

describe('authorization matrix', () => {
  let api: ApiTestClient;
  const credentials = new Map<Caller, { email: string; apiKey: string }>();

  beforeAll(async () => {
    api = await ApiTestClient.start();
    const bus = api.app.get(CommandBus);
    const actor = operatorActor(api.realmId);
    const bot = await bus.execute(new CreateBotCommand({ actor }, { fullName: 'Matrix Bot', shortName: 'matrix', ownerId: api.user('hamlet').userId }));
    api.credentials.set('bot', { userId: bot.userId, email: bot.email, apiKey: bot.apiKey });
    await bus.execute(new DeactivateUserCommand({ actor }, api.user('cordelia').userId));
    for (const caller of CALLERS) {
      const persona = PERSONA[caller];
      if (persona) credentials.set(caller, api.user(persona));
    }
    credentials.set('bad_key', { email: api.user('hamlet').email, apiKey: 'Z'.repeat(32) });
  });
  afterAll(() => api.close());

  const cases = ROWS.flatMap((row) => CALLERS.map((caller) => [row.name, caller, row] as const));

  it.each(cases)('%s as %s', async (_name, caller, row) => {
    const as = (req: ReturnType<ApiTestClient['http']['get']>) => {
      const c = credentials.get(caller);
      return c ? req.auth(c.email, c.apiKey) : req;
    };
    const response = await row.send(api, as, caller);
    const outcome: Outcome = row.public ? 'ok' : (row.outcomes[caller] ?? 401);
    if (outcome === 'ok') {
      expect({ status: response.status, result: response.body.result ?? 'document' }).toEqual({ status: 200, result: response.body.result ? 'success' : 'document' });
    } else if (outcome === 401) {
      expect({ status: response.status, result: response.body.result, code: response.body.code }).toEqual({ status: 401, result: 'error', code: 'UNAUTHORIZED' });
    } else {
      expect({ status: response.status, msg: response.body.msg }).toEqual({ status: 400, msg: EXPECTED_MESSAGE[outcome] });
    }
  });
});
