import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import {
  APP_CONFIG,
  CREDENTIALS,
  CredentialVault,
  DeciderRunner,
  READ_STORE,
  type ReadStorePort,
  RegenerateApiKeyCommand,
  SNAPSHOT_STORE,
  type SnapshotStorePort,
  USERS,
  UserQueries,
} from '@app/application';
import type { AppConfig } from '@app/config';
import { operatorActor, usersStream } from '@app/domain';
import { filesUnder, needlesOf, readWholeLog, scanFiles } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * Issue 35 item 2: API keys and password hashes live in the credential store only. New writes put
 * neither in an event, a read model or a snapshot; the API still hands a key to its user.
 */
jest.setTimeout(120_000);

describe('credentials never in an event, a read model or a snapshot', () => {
  let api: ApiTestClient;
  const keys = new Set<string>();
  const hashes = new Set<string>();
  let newbieKey: string;
  let botKey: string;
  let oldBotKey: string;
  let botEmail: string;

  beforeAll(async () => {
    api = await ApiTestClient.start();
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

  it('no event holds a key or a hash, nor a field for one', async () => {
    const events = await readWholeLog(api.eventStore);
    const text = JSON.stringify(events.map((e) => e.data));
    for (const secret of [...keys, ...hashes]) expect(text.includes(secret) ? secret : null).toBeNull();
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
    ]);
    expect(documents).toContain('api_key_id');
    for (const secret of [...keys, ...hashes]) expect(documents.includes(secret) ? secret : null).toBeNull();
    const snapshot = await api.app.get<SnapshotStorePort>(SNAPSHOT_STORE).load(usersStream(api.realmId), 'users');
    expect(snapshot?.state).toContain('newbie@acme.test');
    for (const secret of [...keys, ...hashes]) expect(snapshot!.state.includes(secret) ? secret : null).toBeNull();
  });

  it('no file of the data directory holds a key or a hash in clear, the credential store included', async () => {
    const dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
    const files = filesUnder(dataDir);
    expect(files.map((f) => f.slice(dataDir.length + 1))).toEqual(expect.arrayContaining(['events.sqlite', 'credentials.sqlite', 'credentials.key']));
    expect(scanFiles(dataDir, [...needlesOf('API key', keys), ...needlesOf('password hash', hashes)])).toEqual([]);
    for (const file of ['credentials.sqlite', 'credentials.key']) expect(statSync(join(dataDir, file)).mode & 0o777).toBe(0o600);
  });
});
