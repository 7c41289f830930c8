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

/** ok: success; 401: credential failure; admin / owner / human / guest: the refusal of that guard. */
type Outcome = 'ok' | 401 | 'admin' | 'owner' | 'human' | 'no_guest';
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
];

const EXPECTED_MESSAGE: Record<Exclude<Outcome, 'ok' | 401>, string> = {
  admin: 'Must be an organization administrator',
  owner: 'Must be an organization owner',
  human: 'This endpoint does not accept bot requests.',
  no_guest: 'Not allowed for guest users',
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
