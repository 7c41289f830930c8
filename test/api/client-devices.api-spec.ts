import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { OTHER_PUSH_KEY, PUSH_KEY, tokenIdOf } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * POST /register_client_device, POST /remove_client_device, `devices` of POST /register and the
 * `device` events (zerver/tests/test_devices.py, test_push_registration.py), through HTTP.
 */
const REGISTER_DEVICE = '/api/v1/register_client_device';
const REMOVE_DEVICE = '/api/v1/remove_client_device';
const PUSH_REGISTER = '/api/v1/mobile_push/register';
const keyFields = { push_key: PUSH_KEY, push_key_id: 2408 };
const tokenFields = (token: string) => ({ token_kind: 'fcm', token_id: tokenIdOf(token), bouncer_public_key: 'bouncer-public-key', encrypted_push_registration: 'encrypted' });
const EMPTY = { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null };

describe.each([
  ['without a push service', {}],
  ['with a push service', { pushNotificationsBouncerUrl: 'https://push.example.com' }],
])('client devices %s', (_label, config) => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'], config })));
  afterEach(() => api.close());

  const devicesOf = async (who: string) => expectSuccess(await api.as(who).post('/api/v1/register', { fetch_event_types: ['device'], event_types: ['message'] })).devices;

  it('registers devices with fresh ids, shows them in /register, removes them', async () => {
    const first = expectSuccess(await api.as('hamlet').post(REGISTER_DEVICE));
    const second = expectSuccess(await api.as('hamlet').post(REGISTER_DEVICE));
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['device_id']));
    expect(second.device_id).toBeGreaterThan(first.device_id);
    const cordelias = expectSuccess(await api.as('cordelia').post(REGISTER_DEVICE)).device_id;
    expect(await devicesOf('hamlet')).toEqual({ [first.device_id]: EMPTY, [second.device_id]: EMPTY });
    expect(await devicesOf('cordelia')).toEqual({ [cordelias]: EMPTY });

    expectSuccess(await api.as('hamlet').post(REMOVE_DEVICE, { device_id: first.device_id }));
    expect(await devicesOf('hamlet')).toEqual({ [second.device_id]: EMPTY });
  });

  it('has `devices` only when `device` is fetched', async () => {
    expect(await devicesOf('hamlet')).toEqual({});
    const other = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['message'], event_types: ['message'] }));
    expect(other).not.toHaveProperty('devices');
  });

  it('answers "Invalid `device_id`" for an unknown, removed or another user\'s device, changing nothing', async () => {
    const mine = expectSuccess(await api.as('hamlet').post(REGISTER_DEVICE)).device_id;
    const cordelias = expectSuccess(await api.as('cordelia').post(REGISTER_DEVICE)).device_id;
    expectSuccess(await api.as('hamlet').post(REMOVE_DEVICE, { device_id: mine }));
    await api.markEvents();
    for (const id of [mine, cordelias, 99999]) expectError(await api.as('hamlet').post(REMOVE_DEVICE, { device_id: id }), 'Invalid `device_id`', { code: 'BAD_REQUEST', status: 400 });
    expect(await api.newEvents()).toEqual([]);
    expect(await devicesOf('cordelia')).toEqual({ [cordelias]: EMPTY });
  });

  it('checks device_id as Zulip\'s Json[int]', async () => {
    expectError(await api.as('hamlet').post(REMOVE_DEVICE), "Missing 'device_id' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    expectError(await api.as('hamlet').post(REMOVE_DEVICE, { device_id: 'one' }), 'device_id is not valid JSON');
  });

  it('sends `device` add and remove events to the owner only', async () => {
    const hamlets = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['device'] })).queue_id;
    const cordelias = expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['device'] })).queue_id;
    const id = expectSuccess(await api.as('hamlet').post(REGISTER_DEVICE)).device_id;
    expectSuccess(await api.as('hamlet').post(REMOVE_DEVICE, { device_id: id }));
    expect(await eventsOf(api, 'hamlet', hamlets, 2)).toEqual([
      { id: 0, type: 'device', op: 'add', device_id: id },
      { id: 1, type: 'device', op: 'remove', device_id: id },
    ]);
    expect(await eventsOf(api, 'cordelia', cordelias, 0)).toEqual([]);
  });

  it('is open to bots, as Zulip\'s views are', async () => {
    const bot = await api.app.get(CommandBus).execute(
      new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Device Bot', shortName: 'device', ownerId: api.user('hamlet').userId }),
    );
    api.credentials.set('bot', { userId: bot.userId, email: bot.email, apiKey: bot.apiKey });
    const id = expectSuccess(await api.as('bot').post(REGISTER_DEVICE)).device_id;
    expectSuccess(await api.as('bot').post(REMOVE_DEVICE, { device_id: id }));
  });
});

describe('`device` update events of POST /mobile_push/register', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['hamlet'], config: { pushNotificationsBouncerUrl: 'https://push.example.com' } })));
  afterEach(() => api.close());

  it('sends Zulip\'s updates: pending then registered for a registration and a token rotation, push_key_id for a key rotation', async () => {
    const id = expectSuccess(await api.as('hamlet').post(REGISTER_DEVICE)).device_id;
    const queue = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['device'] })).queue_id;
    const now = Math.floor(api.clock.now().getTime() / 1000);
    expectSuccess(await api.as('hamlet').post(PUSH_REGISTER, { device_id: id, ...keyFields, ...tokenFields('first') }));
    expectSuccess(await api.as('hamlet').post(PUSH_REGISTER, { device_id: id, push_key: OTHER_PUSH_KEY, push_key_id: 1144 }));
    expectSuccess(await api.as('hamlet').post(PUSH_REGISTER, { device_id: id, ...tokenFields('second') }));
    // Idempotent requests send nothing.
    expectSuccess(await api.as('hamlet').post(PUSH_REGISTER, { device_id: id, ...tokenFields('second') }));
    expectSuccess(await api.as('hamlet').post(PUSH_REGISTER, { device_id: id, push_key: OTHER_PUSH_KEY, push_key_id: 1144 }));
    const update = (fields: object) => ({ type: 'device', op: 'update', device_id: id, ...fields });
    expect((await eventsOf(api, 'hamlet', queue, 5)).map(({ id: _id, ...event }) => event)).toEqual([
      update({ push_key_id: 2408, pending_push_token_id: tokenIdOf('first'), push_token_last_updated_timestamp: now, push_registration_error_code: null }),
      update({ push_token_id: tokenIdOf('first'), pending_push_token_id: null }),
      update({ push_key_id: 1144 }),
      update({ pending_push_token_id: tokenIdOf('second'), push_token_last_updated_timestamp: now, push_registration_error_code: null }),
      update({ push_token_id: tokenIdOf('second'), pending_push_token_id: null }),
    ]);
    const { devices } = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['device'], event_types: ['message'] }));
    expect(devices).toEqual({
      [id]: { push_key_id: 1144, push_token_id: tokenIdOf('second'), pending_push_token_id: null, push_token_last_updated_timestamp: now, push_registration_error_code: null },
    });
  });
});

/** Polls a queue until it holds `count` events (then a short while more, to see nothing else comes). */
async function eventsOf(api: ApiTestClient, who: string, queueId: string, count: number): Promise<any[]> {
  let events: any[] = [];
  for (let i = 0; i < 50; i++) {
    events = expectSuccess(await api.as(who).get('/api/v1/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).events;
    if (events.length >= count && (count > 0 || i >= 5)) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return events;
}
