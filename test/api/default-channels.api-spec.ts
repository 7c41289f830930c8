import { CommandBus } from '@nestjs/cqrs';
import { CreateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * Default channels (zerver/tests/test_default_channels.py, the default-channel cases of
 * test_subs.py) through the real HTTP stack: POST/DELETE /default_streams, PATCH /streams with
 * is_default_stream, `realm_default_streams` in /register, `default_streams` events, and new users
 * joining the default channels.
 */
describe('default channels', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());
  const { register: registerAs, events: eventsNow, refused, createChannel: createAs } = personaHelpers(() => api);

  const DEFAULTS = '/api/v1/default_streams';
  const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
  const create = (who: string, name: string, options: Record<string, unknown> = {}) => createAs(who, name, options, { lookUpAs: 'iago' });
  const defaults = async (who = 'hamlet') => expectSuccess(await api.as(who).post('/api/v1/register', { fetch_event_types: ['default_streams'] })).realm_default_streams;
  const register = (who: string) => registerAs(who, { event_types: ['default_streams', 'stream'] });
  const eventsOf = async (who: string, queueId: string, atLeast: number) => {
    for (let i = 0; ; i++) {
      const events = await eventsNow(who, queueId);
      if (events.length >= atLeast || i >= 50) return events.filter((e) => e.type !== 'heartbeat').map(({ id: _id, ...e }) => e);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  describe('POST /default_streams', () => {
    it('makes a public channel a default one, listed in /register and by GET /streams?include_default', async () => {
      const general = await create('hamlet', 'general');
      const design = await create('hamlet', 'design');
      expect(await defaults()).toEqual([]);
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: design }));
      expectSuccess(await api.as('desdemona').post(DEFAULTS, { stream_id: general }));
      expect(await defaults()).toEqual([general, design].sort((a, b) => a - b));
      // Guests are told the organization has none, as Zulip does.
      expect(await defaults('polonius')).toEqual([]);
      const streams = expectSuccess(await api.as('cordelia').get('/api/v1/streams', { include_default: true })).streams as { name: string; is_default: boolean }[];
      expect(streams.map((s) => [s.name, s.is_default])).toEqual([['design', true], ['general', true]]);
      const plain = expectSuccess(await api.as('cordelia').get('/api/v1/streams')).streams as object[];
      expect(plain.every((s) => !('is_default' in s))).toBe(true);
    });

    it('adds a channel that is already default without recording anything', async () => {
      const general = await create('hamlet', 'general');
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      await api.markEvents();
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      expect(await api.newEvents()).toEqual([]);
      expect(await defaults()).toEqual([general]);
    });

    it('is for administrators', async () => {
      const general = await create('hamlet', 'general');
      await api.markEvents();
      for (const who of ['hamlet', 'shiva', 'polonius']) {
        await refused(await api.as(who).post(DEFAULTS, { stream_id: general }), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
      }
      // The role is checked before the parameters, as Zulip's decorator is.
      await refused(await api.as('hamlet').post(DEFAULTS, {}), 'Must be an organization administrator');
      expect(await defaults()).toEqual([]);
    });

    it("answers Zulip's errors for channels it cannot be, and stores nothing", async () => {
      const secret = await create('cordelia', 'secret', { invite_only: true });
      const archived = await create('hamlet', 'old');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${archived}`));
      await api.markEvents();
      await refused(await api.as('iago').post(DEFAULTS, { stream_id: 9999 }), 'Invalid channel ID');
      // A private channel the administrator is not subscribed to is not theirs to see here.
      await refused(await api.as('iago').post(DEFAULTS, { stream_id: secret }), 'Invalid channel ID');
      await refused(await api.as('iago').post(DEFAULTS, { stream_id: archived }), 'Invalid channel ID');
      expectSuccess(await api.as('cordelia').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'secret' }], principals: [api.user('iago').userId] }));
      await api.markEvents();
      await refused(await api.as('iago').post(DEFAULTS, { stream_id: secret }), 'Private channels cannot be made default.');
      await refused(await api.as('iago').post(DEFAULTS, {}), "Missing 'stream_id' argument");
      await refused(await api.as('iago').post(DEFAULTS, { stream_id: 'general' }), 'stream_id is not valid JSON');
      await refused(await api.as('iago').post(DEFAULTS, { stream_id: '"1"' }), 'stream_id is not an integer');
      expect(await defaults()).toEqual([]);
    });
  });

  describe('DELETE /default_streams', () => {
    it('takes a channel out of the defaults; one that is not default changes nothing', async () => {
      const general = await create('hamlet', 'general');
      const design = await create('hamlet', 'design');
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: design }));
      expectSuccess(await api.as('iago').delete(DEFAULTS).query({ stream_id: general }));
      expect(await defaults()).toEqual([design]);
      // As the Python bindings' call_endpoint sends it: the parameter in a form body.
      const { email, apiKey } = api.user('iago');
      expectSuccess(await api.http.delete(DEFAULTS).auth(email, apiKey).type('form').send({ stream_id: String(design) }));
      expect(await defaults()).toEqual([]);
      await api.markEvents();
      expectSuccess(await api.as('iago').delete(DEFAULTS).query({ stream_id: general }));
      expect(await api.newEvents()).toEqual([]);
    });

    it("is for administrators, with Zulip's errors", async () => {
      const general = await create('hamlet', 'general');
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      await api.markEvents();
      for (const who of ['hamlet', 'shiva', 'polonius']) {
        await refused(await api.as(who).delete(DEFAULTS).query({ stream_id: general }), 'Must be an organization administrator');
      }
      await refused(await api.as('iago').delete(DEFAULTS).query({ stream_id: 9999 }), 'Invalid channel ID');
      await refused(await api.as('iago').delete(DEFAULTS), "Missing 'stream_id' argument");
      expect(await defaults()).toEqual([general]);
    });
  });

  describe('events', () => {
    it('sends default_streams with every default channel id to everyone but guests', async () => {
      const general = await create('hamlet', 'general');
      const design = await create('hamlet', 'design');
      const queues = { hamlet: await register('hamlet'), iago: await register('iago'), polonius: await register('polonius') };
      expect(queues.hamlet.realm_default_streams).toEqual([]);
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: design }));
      expectSuccess(await api.as('iago').delete(DEFAULTS).query({ stream_id: general }));
      const expected = [
        { type: 'default_streams', default_streams: [general] },
        { type: 'default_streams', default_streams: [design] },
      ];
      expected.splice(1, 0, { type: 'default_streams', default_streams: [general, design].sort((a, b) => a - b) });
      expect(await eventsOf('hamlet', queues.hamlet.queue_id, 3)).toEqual(expected);
      expect(await eventsOf('iago', queues.iago.queue_id, 3)).toEqual(expected);
      expect(await eventsOf('polonius', queues.polonius.queue_id, 0)).toEqual([]);
    });

    it('archiving a default channel takes it out of the defaults first, as do_deactivate_stream does', async () => {
      const general = await create('hamlet', 'general');
      const design = await create('hamlet', 'design');
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: design }));
      const queue = await register('cordelia');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${general}`));
      const events = await eventsOf('cordelia', queue.queue_id, 3);
      expect(events.map((e) => `${e.type}/${e.op ?? ''}`)).toEqual(['default_streams/', 'stream/update', 'stream/delete']);
      expect(events[0]).toEqual({ type: 'default_streams', default_streams: [design] });
      expect(await defaults()).toEqual([design]);
      // Unarchived, it is not a default channel again.
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${general}`, { is_archived: false }));
      expect(await defaults()).toEqual([design]);
    });
  });

  describe('PATCH /streams/{stream_id} with is_default_stream', () => {
    it('adds and removes, for administrators only', async () => {
      const general = await create('hamlet', 'general');
      await api.markEvents();
      // hamlet administers the channel he created, but may not change the defaults.
      await refused(await api.as('hamlet').patch(`/api/v1/streams/${general}`, { is_default_stream: true }), 'You do not have permission to change default channels.');
      await refused(await api.as('cordelia').patch(`/api/v1/streams/${general}`, { is_default_stream: true }), 'You do not have permission to administer this channel.');
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${general}`, { is_default_stream: true }));
      expect(await defaults()).toEqual([general]);
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${general}`, { is_default_stream: false }));
      expect(await defaults()).toEqual([]);
    });

    it('keeps a default channel public unless the same request lets it go', async () => {
      const general = await create('iago', 'general');
      const secret = await create('iago', 'secret', { invite_only: true });
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      await api.markEvents();
      await refused(await api.as('iago').patch(`/api/v1/streams/${general}`, { is_private: true }), 'A default channel cannot be private.');
      await refused(await api.as('iago').patch(`/api/v1/streams/${secret}`, { is_default_stream: true }), 'A default channel cannot be private.');
      await refused(await api.as('iago').patch(`/api/v1/streams/${general}`, { is_private: true, is_default_stream: true }), 'A default channel cannot be private.');
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${general}`, { is_private: true, is_default_stream: false }));
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${secret}`, { is_private: false, is_default_stream: true }));
      expect(await defaults()).toEqual([secret]);
      const streams = expectSuccess(await api.as('iago').get('/api/v1/streams', { include_default: true })).streams as { name: string; invite_only: boolean; is_default: boolean }[];
      expect(streams.map((s) => [s.name, s.invite_only, s.is_default])).toEqual([['general', true, false], ['secret', false, true]]);
    });
  });

  describe('POST /users/me/subscriptions with is_default_stream', () => {
    it('makes the channels it creates default ones, not those that exist', async () => {
      const existing = await create('hamlet', 'existing');
      const queue = await register('cordelia');
      expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'existing' }, { name: 'new one' }, { name: 'new two' }], is_default_stream: true }));
      const one = await api.channelId('new one');
      const two = await api.channelId('new two');
      expect(await defaults()).toEqual([one, two]);
      expect(await defaults()).not.toContain(existing);
      // The channels are created first, then made default, each with the whole list.
      const events = (await eventsOf('cordelia', queue.queue_id, 4)).filter((e) => e.type !== 'subscription');
      expect(events.map((e) => `${e.type}/${e.op ?? ''}`)).toEqual(['stream/create', 'stream/create', 'default_streams/', 'default_streams/']);
      expect(events.slice(2)).toEqual([
        { type: 'default_streams', default_streams: [one] },
        { type: 'default_streams', default_streams: [one, two] },
      ]);
    });

    it("refuses what Zulip's check_channel_creation_permissions refuses, creating nothing", async () => {
      await api.markEvents();
      await refused(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'mine' }], is_default_stream: true }), 'Insufficient permission');
      await refused(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'secret' }], is_default_stream: true, invite_only: true }), 'A default channel cannot be private.');
      // Nothing to create: the flag changes nothing, for anyone.
      await create('cordelia', 'there');
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'there' }], is_default_stream: true }));
      expect(await defaults()).toEqual([]);
    });
  });

  describe('new users', () => {
    it('join the default channels when created with POST /users; bots do not', async () => {
      const general = await create('hamlet', 'general');
      const design = await create('hamlet', 'design');
      await create('hamlet', 'random');
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: design }));
      const { user_id: newbie } = expectSuccess(await api.as('iago').post('/api/v1/users', { email: 'newbie@acme.test', password: 'long-enough', full_name: 'New Bie' }));
      const bot = expectSuccess(await api.as('hamlet').post('/api/v1/bots', { full_name: 'Mail Bot', short_name: 'mail' }));
      for (const channelId of [general, design]) {
        const { subscribers } = expectSuccess(await api.as('iago').get(`/api/v1/streams/${channelId}/members`));
        expect(subscribers).toContain(newbie);
        expect(subscribers).not.toContain(bot.user_id);
      }
      const random = await api.channelId('random');
      expect(expectSuccess(await api.as('iago').get(`/api/v1/streams/${random}/members`)).subscribers).not.toContain(newbie);
      const status = expectSuccess(await api.as('iago').get(`/api/v1/users/${newbie}/subscriptions/${general}`));
      expect(status.is_subscribed).toBe(true);
    });

    it('join them however the account is created (the CLI creates as the operator), unless told not to', async () => {
      const general = await create('hamlet', 'general');
      expectSuccess(await api.as('iago').post(DEFAULTS, { stream_id: general }));
      const bus = api.app.get(CommandBus);
      const context = { actor: operatorActor(api.realmId) };
      const person = { fullName: 'Someone', role: 'guest' as const, password: null };
      const { userId: joined } = await bus.execute(new CreateUserCommand(context, { ...person, email: 'guest@acme.test' }));
      const { userId: invited } = await bus.execute(new CreateUserCommand(context, { ...person, email: 'invited@acme.test', joinDefaultChannels: false }));
      const { subscribers } = expectSuccess(await api.as('iago').get(`/api/v1/streams/${general}/members`));
      expect(subscribers).toContain(joined);
      expect(subscribers).not.toContain(invited);
    });

    it('join none when there are none', async () => {
      await create('hamlet', 'general');
      const { user_id: newbie } = expectSuccess(await api.as('iago').post('/api/v1/users', { email: 'newbie@acme.test', password: 'long-enough', full_name: 'New Bie' }));
      const general = await api.channelId('general');
      expect(expectSuccess(await api.as('iago').get(`/api/v1/streams/${general}/members`)).subscribers).not.toContain(newbie);
    });
  });
});
