import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** ≈ zerver/tests/test_service_bot_system.py (TestServiceBotStorage): PUT/GET/DELETE /bot_storage, bots only. */
const STORAGE = '/api/v1/bot_storage';

describe('bot storage', () => {
  let api: ApiTestClient;
  beforeEach(async () => {
    api = await ApiTestClient.start();
    const bus = api.app.get(CommandBus);
    for (const shortName of ['helper', 'other']) {
      const bot = await bus.execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: shortName, shortName, ownerId: api.user('hamlet').userId }));
      api.credentials.set(shortName, { userId: bot.userId, email: bot.email, apiKey: bot.apiKey });
    }
    await api.markEvents();
  });
  afterEach(() => api.close());

  const storage = async (who = 'helper', keys?: string[]) => expectSuccess(await api.as(who).get(STORAGE, keys ? { keys } : {})).storage;
  const put = async (entries: Record<string, string>, who = 'helper') => expectSuccess(await api.as(who).put(STORAGE, { storage: entries }));
  const { refused: expectRefused } = personaHelpers(() => api);

  it('refuses human callers with PERMISSION_DENIED (feature level 494)', async () => {
    for (const who of ['hamlet', 'iago', 'desdemona', 'polonius']) {
      await expectRefused(await api.as(who).put(STORAGE, { storage: {} }), 'Must be a bot user', { code: 'PERMISSION_DENIED', status: 400 });
      await expectRefused(await api.as(who).get(STORAGE), 'Must be a bot user', { code: 'PERMISSION_DENIED' });
      await expectRefused(await api.as(who).delete(STORAGE), 'Must be a bot user', { code: 'PERMISSION_DENIED' });
    }
  });

  it('stores, reads, updates and removes entries as Zulip\'s endpoint test does', async () => {
    const initial = { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' };
    await put(initial);
    expect(await storage('helper', ['key 1', 'key 3'])).toEqual({ 'key 1': 'value 1', 'key 3': 'value 3' });
    expect(await storage()).toEqual(initial);

    await put({ 'key 1': 'new value', 'key 4': 'value 4' });
    const updated: Record<string, string> = { ...initial, 'key 1': 'new value', 'key 4': 'value 4' };
    expect(await storage()).toEqual(updated);

    await api.markEvents();
    await expectRefused(await api.as('helper').get(STORAGE, { keys: 'This is a list, but should be a serialized string.' }), 'keys is not valid JSON');
    await expectRefused(await api.as('helper').get(STORAGE, { keys: ['key 1', 'nonexistent key'] }), 'Key does not exist.', { code: 'BAD_REQUEST' });
    await expectRefused(await api.as('helper').put(STORAGE, { storage: { foo: [1, 2, 3] } }), 'storage["foo"] is not a string');
    await expectRefused(await api.as('helper').put(STORAGE, { storage: ['a'] }), 'storage is not a dict');
    await expectRefused(await api.as('helper').put(STORAGE), "Missing 'storage' argument", { code: 'REQUEST_VARIABLE_MISSING' });

    expectSuccess(await api.as('helper').delete(STORAGE, { keys: ['key 1', 'key 2'] }));
    delete updated['key 1'];
    delete updated['key 2'];
    expect(await storage()).toEqual(updated);

    await api.markEvents();
    await expectRefused(await api.as('helper').delete(STORAGE, { keys: ['key 3', 'nonexistent key'] }), 'Key does not exist.', { code: 'BAD_REQUEST' });
    expect(await storage()).toEqual(updated);

    expectSuccess(await api.as('helper').delete(STORAGE));
    expect(await storage()).toEqual({});
  });

  it('takes the parameters in a form body or the query string, for every method', async () => {
    const body = expectSuccess(await api.as('helper').put(STORAGE).query({ storage: JSON.stringify({ a: '1', b: '2', c: '3' }) }));
    expect(body.ignored_parameters_unsupported).toBeUndefined();
    expect(expectSuccess(await api.as('helper').get(STORAGE).type('form').send({ keys: JSON.stringify(['b']) })).storage).toEqual({ b: '2' });
    expectSuccess(await api.as('helper').delete(STORAGE).type('form').send({ keys: JSON.stringify(['a']) }));
    expect(await storage()).toEqual({ b: '2', c: '3' });
  });

  it('keeps each bot\'s storage to itself', async () => {
    await put({ shared: 'helper\'s' });
    await put({ shared: 'other\'s' }, 'other');
    expect(await storage('helper')).toEqual({ shared: 'helper\'s' });
    expectSuccess(await api.as('other').delete(STORAGE));
    expect(await storage('helper')).toEqual({ shared: 'helper\'s' });
    expectError(await api.as('other').get(STORAGE, { keys: ['shared'] }), 'Key does not exist.');
  });

  it('stores keys of any text, and reads them back exactly', async () => {
    // Parsed from JSON so that "__proto__" is an ordinary key, as it is in the request.
    const entries = JSON.parse('{"__proto__":"p","constructor":"c","":"empty key","🙂":"emoji"}') as Record<string, string>;
    entries['k'.repeat(3000)] = 'long key';
    expectSuccess(await api.as('helper').put(STORAGE).type('form').send({ storage: JSON.stringify(entries) }));
    const read = await api.as('helper').get(STORAGE);
    expect(JSON.parse(read.text).storage).toEqual(JSON.parse(JSON.stringify(entries)));
    expect(Object.keys(JSON.parse(read.text).storage)).toHaveLength(5);
  });

  it('refuses what would exceed 10,000,000 characters, storing nothing of the request', async () => {
    // Four requests of two million characters and one just under fill the storage exactly.
    for (let i = 1; i <= 4; i++) await put({ [`k${i}`]: 'x'.repeat(2_000_000) });
    await put({ k5: 'x'.repeat(1_999_990) });
    await api.markEvents();
    await expectRefused(await api.as('helper').put(STORAGE, { storage: { z: '1' } }), 'Request exceeds storage limit by 2 characters. The limit is 10000000 characters.');
    // Replacing a value with one of the same size still fits; removing makes room.
    await put({ k5: 'y'.repeat(1_999_990) });
    expectSuccess(await api.as('helper').delete(STORAGE, { keys: ['k1'] }));
    await put({ z: '1' });
  });
});
