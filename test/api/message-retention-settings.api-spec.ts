import { ApiTestClient, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * message_retention_days for the organization and per channel (≈ the retention-setting tests of
 * zerver/tests/test_realm.py and test_subs.py): PATCH /realm, PATCH /streams/{id}, POST
 * /users/me/subscriptions, the values in /register and the channel objects, the events, the
 * permissions (owners only) and the errors (parse_message_retention_days).
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const OWNER_ONLY = 'Must be an organization owner';

describe('message_retention_days settings', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, queue, events, register, refused, createChannel } = personaHelpers(() => api);
  const patchRealm = (who: string, value: unknown) => api.as(who).patch('/api/v1/realm', { message_retention_days: value });
  const patchChannel = (who: string, streamId: number, value: unknown) => api.as(who).patch(`/api/v1/streams/${streamId}`, { message_retention_days: value });
  const realmValue = async (who = 'hamlet') => (await register(who, { fetch_event_types: JSON.stringify(['realm']) })).realm_message_retention_days;
  const channelValue = async (streamId: number) => expectSuccess(await api.as('iago').get(`/api/v1/streams/${streamId}`)).stream.message_retention_days;

  describe('PATCH /realm', () => {
    it('starts at -1 (forever); an owner sets days and "unlimited", answered, in /register and as a realm update event to everyone', async () => {
      expect(await realmValue()).toBe(-1);
      const q = await queue('hamlet', ['realm']);
      expect(expectSuccess(await patchRealm('desdemona', 30))).toEqual({ result: 'success', msg: '', message_retention_days: 30 });
      expect(await realmValue('cordelia')).toBe(30);
      expect(expectSuccess(await patchRealm('desdemona', JSON.stringify('unlimited')))).toMatchObject({ message_retention_days: -1 });
      expect(await realmValue()).toBe(-1);
      expect(await events('hamlet', q)).toEqual([
        { id: 0, type: 'realm', op: 'update', property: 'message_retention_days', value: 30 },
        { id: 1, type: 'realm', op: 'update', property: 'message_retention_days', value: -1 },
      ]);
    });

    it('records nothing and sends nothing for the current value', async () => {
      const q = await queue('hamlet', ['realm']);
      await api.markEvents();
      expect(expectSuccess(await patchRealm('desdemona', JSON.stringify('unlimited')))).toEqual({ result: 'success', msg: '' });
      expect(await api.newEvents()).toEqual([]);
      expect(await events('hamlet', q)).toEqual([]);
    });

    it('is for owners: administrators are refused, whatever the value; others are not administrators', async () => {
      await refused(await patchRealm('iago', 30), OWNER_ONLY, { code: 'UNAUTHORIZED_PRINCIPAL' });
      await refused(await patchRealm('iago', JSON.stringify('forever')), OWNER_ONLY, { code: 'UNAUTHORIZED_PRINCIPAL' });
      // Nothing else of the request is applied either.
      await refused(await api.as('iago').patch('/api/v1/realm', { description: 'changed', message_retention_days: 30 }), OWNER_ONLY);
      for (const who of ['shiva', 'hamlet', 'polonius']) await refused(await patchRealm(who, 30), 'Must be an organization administrator');
      expect(await realmValue()).toBe(-1);
    });

    it.each([
      [0, "Bad value for 'message_retention_days': 0"],
      [-1, "Bad value for 'message_retention_days': -1"],
      [JSON.stringify('forever'), "Bad value for 'message_retention_days': forever"],
      [JSON.stringify('realm_default'), "Bad value for 'message_retention_days': realm_default"],
    ])('refuses %s', async (value, message) => {
      await refused(await patchRealm('desdemona', value), message);
      expect(await realmValue()).toBe(-1);
    });

    it('refuses a value that is not an integer or a string', async () => {
      await refused(await patchRealm('desdemona', 1.5), 'message_retention_days is not an integer');
      await refused(await patchRealm('desdemona', JSON.stringify([30])), 'message_retention_days is not an integer');
    });
  });

  describe('PATCH /streams/{stream_id}', () => {
    it('an owner sets days, "unlimited" (-1) and "realm_default" (null): the channel object, subscriptions and /register follow', async () => {
      const denmark = await createChannel('hamlet', 'Denmark', { principals: JSON.stringify([id('hamlet'), id('cordelia')]) });
      expect(await channelValue(denmark)).toBeNull();
      expectSuccess(await patchChannel('desdemona', denmark, 7));
      expect(await channelValue(denmark)).toBe(7);
      const { subscriptions } = expectSuccess(await api.as('cordelia').get(SUBSCRIPTIONS));
      expect(subscriptions.find((s: { stream_id: number }) => s.stream_id === denmark).message_retention_days).toBe(7);
      const state = await register('cordelia', { fetch_event_types: JSON.stringify(['subscription', 'stream']) });
      expect(state.subscriptions.find((s: { stream_id: number }) => s.stream_id === denmark).message_retention_days).toBe(7);
      expect(state.streams.find((s: { stream_id: number }) => s.stream_id === denmark).message_retention_days).toBe(7);
      expectSuccess(await patchChannel('desdemona', denmark, JSON.stringify('unlimited')));
      expect(await channelValue(denmark)).toBe(-1);
      expectSuccess(await patchChannel('desdemona', denmark, JSON.stringify('realm_default')));
      expect(await channelValue(denmark)).toBeNull();
    });

    it('sends a stream update event (property message_retention_days) to those who may see the channel, only when the value changes', async () => {
      const secret = await createChannel('hamlet', 'secret', { invite_only: true, principals: JSON.stringify([id('hamlet'), id('cordelia'), id('desdemona')]) });
      const [cordeliaQueue, shivaQueue] = [await queue('cordelia', ['stream']), await queue('shiva', ['stream'])];
      expectSuccess(await patchChannel('desdemona', secret, 7));
      expectSuccess(await patchChannel('desdemona', secret, 7));
      expectSuccess(await patchChannel('desdemona', secret, JSON.stringify('realm_default')));
      expect(await events('cordelia', cordeliaQueue)).toEqual([
        { id: 0, type: 'stream', op: 'update', stream_id: secret, name: 'secret', property: 'message_retention_days', value: 7 },
        { id: 1, type: 'stream', op: 'update', stream_id: secret, name: 'secret', property: 'message_retention_days', value: null },
      ]);
      // Shiva, a moderator, may not see the private channel.
      expect(await events('shiva', shivaQueue)).toEqual([]);
    });

    it('is for owners only: administrators and the channel\'s own administrators are refused, and nothing else of the request applies', async () => {
      const denmark = await createChannel('hamlet', 'Denmark');
      await api.markEvents();
      await refused(await patchChannel('iago', denmark, 7), OWNER_ONLY, { code: 'UNAUTHORIZED_PRINCIPAL' });
      await refused(await patchChannel('iago', denmark, JSON.stringify('realm_default')), OWNER_ONLY);
      // Hamlet created the channel, so he administers it; its retention is still not his to set.
      await refused(await patchChannel('hamlet', denmark, 7), OWNER_ONLY);
      await refused(await api.as('iago').patch(`/api/v1/streams/${denmark}`, { description: 'changed', message_retention_days: 7 }), OWNER_ONLY);
      await refused(await patchChannel('cordelia', denmark, 7), 'You do not have permission to administer this channel.');
      expect(await channelValue(denmark)).toBeNull();
    });

    it.each([
      [0, "Bad value for 'message_retention_days': 0"],
      [-1, "Bad value for 'message_retention_days': -1"],
      [JSON.stringify('forever'), "Bad value for 'message_retention_days': forever"],
    ])('refuses %s', async (value, message) => {
      const denmark = await createChannel('hamlet', 'Denmark');
      await api.markEvents();
      await refused(await patchChannel('desdemona', denmark, value), message);
    });
  });

  describe('POST /users/me/subscriptions', () => {
    it('an owner creates channels with their own retention, sent in the stream creation event', async () => {
      const q = await queue('desdemona', ['stream']);
      expectSuccess(await api.as('desdemona').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'short-lived' }], message_retention_days: 10 }));
      const created = await api.channelId('short-lived', 'desdemona');
      expect(await channelValue(created)).toBe(10);
      const [event] = (await events('desdemona', q)).filter((e) => e.op === 'create');
      expect(event.streams[0]).toMatchObject({ name: 'short-lived', message_retention_days: 10 });
      expectSuccess(await api.as('desdemona').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'forever' }], message_retention_days: JSON.stringify('unlimited') }));
      expect(await channelValue(await api.channelId('forever', 'desdemona'))).toBe(-1);
    });

    it('anyone who may create channels keeps "realm_default"; any other value is for owners, when a channel would be created', async () => {
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'plain' }], message_retention_days: JSON.stringify('realm_default') }));
      expect(await channelValue(await api.channelId('plain'))).toBeNull();
      await api.markEvents();
      await refused(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'new one' }], message_retention_days: 10 }), OWNER_ONLY, { code: 'UNAUTHORIZED_PRINCIPAL' });
      await refused(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'new one' }], message_retention_days: JSON.stringify('unlimited') }), OWNER_ONLY);
      // Joining an existing channel creates nothing, so nothing is refused (Zulip's list_to_streams).
      expect(expectSuccess(await api.as('cordelia').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'plain' }], message_retention_days: 10 })).subscribed).toEqual({ [String(id('cordelia'))]: ['plain'] });
      expect(await channelValue(await api.channelId('plain'))).toBeNull();
    });

    it('refuses a bad value before anything else', async () => {
      await api.markEvents();
      await refused(await api.as('desdemona').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'x' }], message_retention_days: JSON.stringify('forever') }), "Bad value for 'message_retention_days': forever");
      await refused(await api.as('desdemona').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'x' }], message_retention_days: 0 }), "Bad value for 'message_retention_days': 0");
    });
  });
});
