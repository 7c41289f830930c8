import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, CreateBotCommand, PushRegistrationQueries } from '@app/application';
import type { AppConfig } from '@app/config';
import { operatorActor } from '@app/domain';
import { openSqlite } from '@app/infrastructure';
import { OTHER_PUSH_KEY, PUSH_KEY, tokenIdOf, personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** zerver/tests/test_push_registration.py (RegisterPushDeviceToServer) through the real HTTP stack. */

/** The push secrets in the credential store (`credentials.sqlite`), by kind. */
function pushEntriesIn(api: ApiTestClient): Record<string, number> {
  const db = openSqlite(join(api.app.get<AppConfig>(APP_CONFIG).dataDir, 'credentials.sqlite'));
  try {
    const rows = db.prepare("SELECT kind, count(*) AS n FROM credentials WHERE kind LIKE 'push_%' GROUP BY kind ORDER BY kind").all() as { kind: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
  } finally {
    db.close();
  }
}
const REGISTER = '/api/v1/mobile_push/register';
const keyFields = { push_key: PUSH_KEY, push_key_id: 2408 };
const tokenFields = (token = 'fcm-token') => ({ token_kind: 'fcm', token_id: tokenIdOf(token), bouncer_public_key: 'bouncer-public-key', encrypted_push_registration: 'encrypted-push-registration-data' });
const full = (deviceId = 1) => ({ device_id: deviceId, ...keyFields, ...tokenFields() });

describe('POST /mobile_push/register without a push service (the default)', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['hamlet'] })));
  afterAll(() => api.close());

  it('answers PUSH_SERVICE_NOT_CONFIGURED and stores nothing', async () => {
    await api.markEvents();
    expectError(await api.as('hamlet').post(REGISTER, full()), 'Server is not configured to use push notification service.', { code: 'PUSH_SERVICE_NOT_CONFIGURED', status: 400 });
    expect(await api.newEvents()).toEqual([]);
  });

  it('checks its parameters first', async () => {
    expectError(await api.as('hamlet').post(REGISTER, keyFields), "Missing 'device_id' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    expectError(await api.as('hamlet').post(REGISTER, { ...full(), token_kind: 'gcm' }), 'Invalid token_kind');
    expectError(await api.as('hamlet').post(REGISTER, { ...full(), push_key_id: 4294967296 }), 'Invalid push_key_id');
    expectError(await api.as('hamlet').post(REGISTER, { ...full(), push_key_id: -1 }), 'Invalid push_key_id');
    expectError(await api.as('hamlet').post(REGISTER, { ...full(), device_id: 'one' }), 'device_id is not valid JSON');
  });
});

describe('POST /mobile_push/register with a push service configured', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia'], config: { pushNotificationsBouncerUrl: 'https://push.example.com' } })));
  afterEach(() => api.close());

  const registrationOf = (name: string) => api.app.get(PushRegistrationQueries).of(api.realmId, api.user(name).userId);
  /** What the notification sender reads: the registrations with their secrets, from the credential store. */
  const targetsOf = (name: string) => api.app.get(PushRegistrationQueries).targets(api.realmId, api.user(name).userId);
  const pushEntries = () => pushEntriesIn(api);
  /** POST /register_client_device: the device record a registration names. */
  const newDevice = async (name = 'hamlet') => expectSuccess(await api.as(name).post('/api/v1/register_client_device')).device_id as number;
  const { refused } = personaHelpers(() => api);

  it('stores an initial registration; repeating it changes nothing', async () => {
    const id = await newDevice();
    expectSuccess(await api.as('hamlet').post(REGISTER, full(id)));
    expect((await registrationOf('hamlet')).devices).toEqual({
      [id]: {
        push_key_id: 2408, push_token_id: tokenIdOf('fcm-token'), pending_push_token_id: null, push_token_last_updated_timestamp: Math.floor(api.clock.now().getTime() / 1000),
        push_registration_error_code: null, push_token_kind: 'fcm', push_key_entry_id: expect.any(String), registration_entry_id: expect.any(String),
      },
    });
    await api.markEvents();
    expectSuccess(await api.as('hamlet').post(REGISTER, full(id)));
    expect(await api.newEvents()).toEqual([]);
    // The sender still gets the push key and the encrypted registration, from the credential store; the repeat stored nothing more.
    expect(await targetsOf('hamlet')).toEqual({
      devices: [{ deviceId: id, pushKeyId: 2408, pushKey: PUSH_KEY, tokenKind: 'fcm', encryptedPushRegistration: 'encrypted-push-registration-data' }],
      legacyTokens: [],
    });
    expect(await pushEntries()).toEqual({ push_key: 1, push_registration: 1 });
  });

  it('accepts the multipart shape zulip-js sends', async () => {
    const id = await newDevice();
    expectSuccess(await api.as('hamlet').postMultipart(REGISTER, full(id)));
    expect((await registrationOf('hamlet')).devices[String(id)]).toMatchObject({ push_key_id: 2408 });
  });

  it('needs a device of the caller: "Invalid `device_id`" for an unknown, removed or another user\'s device', async () => {
    const cordelias = await newDevice('cordelia');
    const removed = await newDevice();
    expectSuccess(await api.as('hamlet').post('/api/v1/remove_client_device', { device_id: removed }));
    await api.markEvents();
    await refused(await api.as('hamlet').post(REGISTER, full(cordelias)), 'Invalid `device_id`');
    await refused(await api.as('hamlet').post(REGISTER, full(removed)), 'Invalid `device_id`');
    await refused(await api.as('hamlet').post(REGISTER, full(99999)), 'Invalid `device_id`');
    // Checked before the fields (check_device_id comes first in register_push_device).
    await refused(await api.as('hamlet').post(REGISTER, { device_id: 99999 }), 'Invalid `device_id`');
    expect((await registrationOf('cordelia')).devices[String(cordelias)]).toMatchObject({ push_key_id: null });
  });

  it('answers Zulip\'s errors and stores nothing', async () => {
    const id = await newDevice();
    await api.markEvents();
    await refused(await api.as('hamlet').post(REGISTER, { device_id: id, push_key: PUSH_KEY, token_kind: 'fcm' }), 'Missing parameters: must provide either all push key fields, all token fields, or both.');
    await refused(await api.as('hamlet').post(REGISTER, { ...full(id), push_key: '@abcdefg' }), 'Invalid `push_key`');
    await refused(await api.as('hamlet').post(REGISTER, { ...full(id), push_key: 'abcd' }), 'Invalid `push_key`');
    const wrongPrefix = Buffer.concat([Buffer.from([0x32]), Buffer.from(PUSH_KEY, 'base64').subarray(1)]).toString('base64');
    await refused(await api.as('hamlet').post(REGISTER, { ...full(id), push_key: wrongPrefix }), 'Invalid `push_key`');
    await refused(await api.as('hamlet').post(REGISTER, { ...full(id), token_id: 'not base64!' }), '`token_id` is not Base64 encoded');
    await refused(await api.as('hamlet').post(REGISTER, { device_id: id, ...keyFields }), 'No push registration exists to rotate key for.');
    await refused(await api.as('hamlet').post(REGISTER, { device_id: id, ...tokenFields() }), 'No push registration exists to rotate token for.');
    // Nothing was left in the credential store either.
    expect(await pushEntries()).toEqual({});
  });

  it('rotates the push key, then the token, of a registration', async () => {
    const id = await newDevice();
    expectSuccess(await api.as('hamlet').post(REGISTER, full(id)));
    expectSuccess(await api.as('hamlet').post(REGISTER, { device_id: id, push_key: OTHER_PUSH_KEY, push_key_id: 1144 }));
    expectSuccess(await api.as('hamlet').post(REGISTER, { device_id: id, ...tokenFields('new-token') }));
    expect((await registrationOf('hamlet')).devices[String(id)]).toMatchObject({ push_key_id: 1144, push_token_id: tokenIdOf('new-token'), pending_push_token_id: null });
    expect((await targetsOf('hamlet')).devices).toEqual([{ deviceId: id, pushKeyId: 1144, pushKey: OTHER_PUSH_KEY, tokenKind: 'fcm', encryptedPushRegistration: 'encrypted-push-registration-data' }]);
    // The replaced key and registration left the store.
    expect(await pushEntries()).toEqual({ push_key: 1, push_registration: 1 });
  });

  it('removing a device removes its secrets from the credential store', async () => {
    const id = await newDevice();
    const other = await newDevice();
    expectSuccess(await api.as('hamlet').post(REGISTER, full(id)));
    expectSuccess(await api.as('hamlet').post(REGISTER, { ...full(other), push_key: OTHER_PUSH_KEY }));
    expect(await pushEntries()).toEqual({ push_key: 2, push_registration: 2 });
    expectSuccess(await api.as('hamlet').post('/api/v1/remove_client_device', { device_id: id }));
    expect(await pushEntries()).toEqual({ push_key: 1, push_registration: 1 });
    expect((await targetsOf('hamlet')).devices.map((d) => [d.deviceId, d.pushKey])).toEqual([[other, OTHER_PUSH_KEY]]);
  });

  it('keeps each user\'s registrations apart', async () => {
    const id = await newDevice();
    expectSuccess(await api.as('hamlet').post(REGISTER, full(id)));
    await newDevice('cordelia');
    await api.markEvents();
    await refused(await api.as('cordelia').post(REGISTER, { device_id: id, ...keyFields }), 'Invalid `device_id`');
  });

  it('removes the legacy registration of the same token', async () => {
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: 'fcm-token' }));
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: 'other-phone' }));
    expect((await targetsOf('hamlet')).legacyTokens.map((t) => t.token)).toEqual(['fcm-token', 'other-phone']);
    expectSuccess(await api.as('hamlet').post(REGISTER, full(await newDevice())));
    expect((await targetsOf('hamlet')).legacyTokens.map((t) => t.token)).toEqual(['other-phone']);
    // The replaced token's entry left the credential store with it.
    expect(await pushEntries()).toEqual({ push_key: 1, push_registration: 1, push_token: 1 });
  });

  it('is for humans only', async () => {
    const bot = await api.app.get(CommandBus).execute(
      new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Push Bot', shortName: 'push', ownerId: api.user('hamlet').userId }),
    );
    api.credentials.set('bot', { userId: bot.userId, email: bot.email, apiKey: bot.apiKey });
    await api.markEvents();
    await refused(await api.as('bot').post(REGISTER, full()), 'This endpoint does not accept bot requests.');
  });
});

describe('legacy push tokens', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start({ personas: ['hamlet'] })));
  afterEach(() => api.close());

  const targetsOf = () => api.app.get(PushRegistrationQueries).targets(api.realmId, api.user('hamlet').userId);

  it('adds and removes APNs and FCM tokens: the sender reads them from the credential store, which forgets a removed one', async () => {
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/apns_device_token', { token: 'C0FFEE', appid: 'org.zulip.Zulip' }));
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: 'android-token' }));
    // Adding the same token again stores nothing more.
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: 'android-token' }));
    expect((await targetsOf()).legacyTokens).toEqual([
      { kind: 'apns', token: 'c0ffee', iosAppId: 'org.zulip.Zulip' },
      { kind: 'fcm', token: 'android-token', iosAppId: null },
    ]);
    expect(await pushEntriesIn(api)).toEqual({ push_token: 2 });
    // The read model names the entries; it holds no token.
    const doc = await api.app.get(PushRegistrationQueries).of(api.realmId, api.user('hamlet').userId);
    expect(JSON.stringify(doc)).not.toContain('android-token');
    expectSuccess(await api.as('hamlet').delete('/api/v1/users/me/apns_device_token', { token: 'C0FFEE' }));
    expectSuccess(await api.as('hamlet').delete('/api/v1/users/me/android_gcm_reg_id', { token: 'android-token' }));
    expect(await targetsOf()).toEqual({ devices: [], legacyTokens: [] });
    expect(await pushEntriesIn(api)).toEqual({});
  });

  it('answers Zulip\'s errors', async () => {
    expectError(await api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: '' }), 'Empty or invalid length token');
    expectError(await api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: 'x'.repeat(4097) }), 'Empty or invalid length token');
    expectError(await api.as('hamlet').post('/api/v1/users/me/apns_device_token', { token: 'xyz', appid: 'org.zulip.Zulip' }), 'Invalid APNS token');
    expectError(await api.as('hamlet').post('/api/v1/users/me/apns_device_token', { token: 'c0ffee', appid: '* -- +' }), 'Invalid app ID');
    expectError(await api.as('hamlet').delete('/api/v1/users/me/android_gcm_reg_id', { token: 'never-added' }), 'Token does not exist');
    expect(await pushEntriesIn(api)).toEqual({});
  });
});
