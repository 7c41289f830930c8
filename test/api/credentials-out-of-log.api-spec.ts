import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import {
  APP_CONFIG,
  CREDENTIALS,
  CredentialVault,
  DeciderRunner,
  PUSH_REGISTRATIONS,
  PushRegistrationQueries,
  READ_STORE,
  type ReadStorePort,
  RegenerateApiKeyCommand,
  SNAPSHOT_STORE,
  type SnapshotStorePort,
  USERS,
  UserQueries,
} from '@app/application';
import type { AppConfig } from '@app/config';
import { operatorActor, pushDevicesStream, usersStream } from '@app/domain';
import { filesUnder, needlesOf, readWholeLog, scanFiles, tokenIdOf } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * Issue 35 item 2: API keys, password hashes and push secrets (E2EE push keys, registrations
 * encrypted for the bouncer, legacy APNs/FCM tokens) live in the credential store only. New
 * writes put none in an event, a read model or a snapshot; the API still hands a key to its user,
 * and the notification sender still gets the push secrets.
 */
jest.setTimeout(120_000);

/** A valid E2EE push key (0x31, then 32 random bytes), unique to this run. */
const newPushKey = () => Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64');
const unique = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

describe('credentials never in an event, a read model or a snapshot', () => {
  let api: ApiTestClient;
  const keys = new Set<string>();
  const hashes = new Set<string>();
  /** Every push key, encrypted registration and legacy token sent, current or replaced. */
  const pushSecrets = new Set<string>();
  const current = { pushKey: '', registration: '', apns: '', fcm: '' };
  let deviceId: number;
  let newbieKey: string;
  let botKey: string;
  let oldBotKey: string;
  let botEmail: string;

  beforeAll(async () => {
    api = await ApiTestClient.start({ config: { pushNotificationsBouncerUrl: 'https://push.example.com' } });
    // Every command of the users stream stores a snapshot: they must hold no secret either.
    api.app.get(DeciderRunner).snapshotEvery = 1;
    const created = expectSuccess(await api.as('iago').post('/api/v1/users', { email: 'newbie@acme.test', password: 'newbie-password', full_name: 'New Bie' }));
    newbieKey = expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'newbie@acme.test', password: 'newbie-password' })).api_key;
    expect(created.user_id).toEqual(expect.any(Number));
    expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { old_password: 'hamlet-password', new_password: 'hamlet-new-password' }));
    const bot = expectSuccess(await api.as('cordelia').post('/api/v1/bots', { full_name: 'Secret Bot', short_name: 'secret' }));
    botEmail = (await api.app.get(UserQueries).byId(api.realmId, bot.user_id))!.email;
    // Used once, so that authentication remembers it for the cached account: the regeneration must still end it.
    expectSuccess(await api.http.get('/api/v1/users/me').auth(botEmail, bot.api_key));
    const bus = api.app.get(CommandBus);
    const regenerated = await bus.execute(new RegenerateApiKeyCommand({ actor: operatorActor(api.realmId) }, bot.user_id));
    botKey = regenerated.apiKey;
    oldBotKey = bot.api_key;
    for (const key of [newbieKey, bot.api_key as string, botKey, ...[...api.credentials.values()].map((c) => c.apiKey)]) keys.add(key);
    // Push registrations: a device registered, its key and token rotated, a second device removed, legacy tokens added and one removed.
    const register = (fields: Record<string, unknown>) => api.as('hamlet').post('/api/v1/mobile_push/register', fields);
    const registration = (token: string) => ({
      token_kind: 'fcm', token_id: tokenIdOf(token), bouncer_public_key: 'bouncer-public-key', encrypted_push_registration: unique('encrypted-registration'),
    });
    const secretsOf = (fields: Record<string, unknown>) => {
      for (const key of ['push_key', 'encrypted_push_registration']) if (typeof fields[key] === 'string') pushSecrets.add(fields[key] as string);
      return fields;
    };
    deviceId = expectSuccess(await api.as('hamlet').post('/api/v1/register_client_device')).device_id;
    const removedDevice = expectSuccess(await api.as('hamlet').post('/api/v1/register_client_device')).device_id;
    expectSuccess(await register(secretsOf({ device_id: deviceId, push_key: newPushKey(), push_key_id: 1, ...registration('phone-1') })));
    expectSuccess(await register(secretsOf({ device_id: removedDevice, push_key: newPushKey(), push_key_id: 2, ...registration('phone-2') })));
    current.pushKey = newPushKey();
    expectSuccess(await register(secretsOf({ device_id: deviceId, push_key: current.pushKey, push_key_id: 3 })));
    const rotated = secretsOf({ device_id: deviceId, ...registration('phone-3') });
    current.registration = rotated.encrypted_push_registration as string;
    expectSuccess(await register(rotated));
    expectSuccess(await api.as('hamlet').post('/api/v1/remove_client_device', { device_id: removedDevice }));
    current.apns = randomBytes(32).toString('hex');
    current.fcm = unique('fcm-registration-token');
    const goneFcm = unique('fcm-token-removed');
    for (const token of [current.apns, current.fcm, goneFcm]) pushSecrets.add(token);
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/apns_device_token', { token: current.apns, appid: 'org.zulip.Zulip' }));
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: current.fcm }));
    expectSuccess(await api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: goneFcm }));
    expectSuccess(await api.as('hamlet').delete('/api/v1/users/me/android_gcm_reg_id', { token: goneFcm }));
    const vault = api.app.get(CredentialVault);
    for (const doc of await api.app.get<ReadStorePort>(READ_STORE).find<{ password_id: string | null }>(CREDENTIALS, { where: { realm_id: api.realmId } })) {
      if (doc.password_id) hashes.add((await vault.passwordHash(doc.password_id))!);
    }
  });
  afterAll(() => api?.close());

  it('the API still answers with the keys and accepts only the current ones', async () => {
    expect(keys.size).toBeGreaterThan(8);
    expect(hashes.size).toBeGreaterThan(5);
    expect(expectSuccess(await api.http.get('/api/v1/users/me').auth('newbie@acme.test', newbieKey)).email).toBe('newbie@acme.test');
    expect(expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'hamlet@acme.test', password: 'hamlet-new-password' })).api_key).toBe(api.user('hamlet').apiKey);
    expectError(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'hamlet@acme.test', password: 'hamlet-password' }), 'Your username or password is incorrect', { status: 401 });
    expect(expectSuccess(await api.http.get('/api/v1/users/me').auth(botEmail, botKey)).user_id).toEqual(expect.any(Number));
    // The key before the regeneration stops working at once.
    expect(oldBotKey).not.toBe(botKey);
    expectError(await api.http.get('/api/v1/users/me').auth(botEmail, oldBotKey), 'Invalid API key', { status: 401 });
    const bots = expectSuccess(await api.as('cordelia').get('/api/v1/bots')).bots as { api_key: string }[];
    expect(bots.map((b) => b.api_key)).toEqual([botKey]);
  });

  it('the notification sender still gets the current push secrets, and only those', async () => {
    expect(pushSecrets.size).toBe(2 * 2 + 2 + 3); // two registrations, a key and a registration rotated in, three legacy tokens
    expect(await api.app.get(PushRegistrationQueries).targets(api.realmId, api.user('hamlet').userId)).toEqual({
      devices: [{ deviceId, pushKeyId: 3, pushKey: current.pushKey, tokenKind: 'fcm', encryptedPushRegistration: current.registration }],
      legacyTokens: [
        { kind: 'apns', token: current.apns, iosAppId: 'org.zulip.Zulip' },
        { kind: 'fcm', token: current.fcm, iosAppId: null },
      ],
    });
  });

  it('no event holds a key, a hash or a push secret, nor a field for one', async () => {
    const events = await readWholeLog(api.eventStore);
    const text = JSON.stringify(events.map((e) => e.data));
    for (const secret of [...keys, ...hashes, ...pushSecrets]) expect(text.includes(secret) ? secret : null).toBeNull();
    const pushEvents = events.filter((e) => e.streamId === pushDevicesStream(api.user('hamlet').userId));
    expect(new Set(pushEvents.map((e) => e.type))).toEqual(
      new Set(['ClientDeviceRegistered', 'PushDeviceRegistered', 'PushKeyRotated', 'PushTokenRotated', 'ClientDeviceRemoved', 'LegacyPushTokenAdded', 'LegacyPushTokenRemoved']),
    );
    for (const event of pushEvents) for (const field of ['pushKey', 'encryptedPushRegistration', 'token']) expect(Object.keys(event.data as object)).not.toContain(field);
    const credentialEvents = events.filter((e) => ['UserCreated', 'UserApiKeyRegenerated', 'UserPasswordChanged'].includes(e.type));
    expect(credentialEvents.map((e) => e.type)).toEqual(expect.arrayContaining(['UserCreated', 'UserApiKeyRegenerated', 'UserPasswordChanged']));
    for (const event of credentialEvents) {
      expect(Object.keys(event.data as object)).not.toEqual(expect.arrayContaining(['apiKey']));
      expect(Object.keys(event.data as object)).not.toEqual(expect.arrayContaining(['passwordHash']));
    }
  });

  it('no read model document and no snapshot holds one', async () => {
    const readStore = api.app.get<ReadStorePort>(READ_STORE);
    const documents = JSON.stringify([
      ...(await readStore.find(CREDENTIALS, { where: { realm_id: api.realmId } })),
      ...(await readStore.find(USERS, { where: { realm_id: api.realmId } })),
      ...(await readStore.find(PUSH_REGISTRATIONS, { where: { realm_id: api.realmId } })),
    ]);
    expect(documents).toContain('api_key_id');
    expect(documents).toContain('token_entry_id');
    for (const secret of [...keys, ...hashes, ...pushSecrets]) expect(documents.includes(secret) ? secret : null).toBeNull();
    const snapshots = api.app.get<SnapshotStorePort>(SNAPSHOT_STORE);
    const snapshot = await snapshots.load(usersStream(api.realmId), 'users');
    expect(snapshot?.state).toContain('newbie@acme.test');
    for (const secret of [...keys, ...hashes]) expect(snapshot!.state.includes(secret) ? secret : null).toBeNull();
    const pushSnapshot = await snapshots.load(pushDevicesStream(api.user('hamlet').userId), 'push-devices');
    expect(pushSnapshot?.state).toContain('tokenEntryId');
    for (const secret of pushSecrets) expect(pushSnapshot!.state.includes(secret) ? secret : null).toBeNull();
  });

  it('no file of the data directory holds a key, a hash or a push secret in clear, the credential store included', async () => {
    const dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
    const files = filesUnder(dataDir);
    expect(files.map((f) => f.slice(dataDir.length + 1))).toEqual(expect.arrayContaining(['events.sqlite', 'credentials.sqlite', 'credentials.key']));
    expect(scanFiles(dataDir, [...needlesOf('API key', keys), ...needlesOf('password hash', hashes), ...needlesOf('push secret', pushSecrets)])).toEqual([]);
    for (const file of ['credentials.sqlite', 'credentials.key']) expect(statSync(join(dataDir, file)).mode & 0o777).toBe(0o600);
  });
});
