import { usersStream } from '@app/domain';
import { userDeactivated, personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * POST / DELETE / GET /users/me/subscriptions through the real HTTP stack (≈ zerver/tests/test_subs.py).
 * Personas: iago administrator, desdemona owner, shiva moderator, hamlet and cordelia members, polonius guest.
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';

describe('subscriptions', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, queue, events, refused: expectRefused } = personaHelpers(() => api);
  const entries = (names: (string | Record<string, unknown>)[]) => names.map((n) => (typeof n === 'string' ? { name: n } : n));
  const subscribe = (who: string, names: (string | Record<string, unknown>)[], extra: Record<string, unknown> = {}) =>
    api.as(who).post(SUBSCRIPTIONS, { subscriptions: entries(names), ...extra });
  const mySubscriptions = async (who: string, query: Record<string, unknown> = {}) =>
    expectSuccess(await api.as(who).get(SUBSCRIPTIONS, query)).subscriptions as Record<string, any>[];
  const channelId = async (name: string) => expectSuccess(await api.as('iago').get('/api/v1/streams', { include_all: true, exclude_archived: false }))
    .streams.find((s: { name: string }) => s.name === name).stream_id as number;

  describe('POST: creating channels', () => {
    it('creates a public channel and subscribes its creator, answering by user id', async () => {
      const body = expectSuccess(await subscribe('hamlet', [{ name: 'design', description: 'Pixels and more' }]));
      expect(body).toEqual({ result: 'success', msg: '', subscribed: { [String(id('hamlet'))]: ['design'] }, already_subscribed: {} });
      const [sub] = await mySubscriptions('hamlet');
      expect(sub).toMatchObject({
        name: 'design', description: 'Pixels and more', rendered_description: '<p>Pixels and more</p>', invite_only: false,
        history_public_to_subscribers: true, is_web_public: false, is_archived: false, creator_id: id('hamlet'),
        date_created: Math.floor(api.clock.now().getTime() / 1000), subscriber_count: 1, stream_post_policy: 1, is_announcement_only: false,
      });
    });

    it('accepts the multipart shape zulip-js sends', async () => {
      const body = expectSuccess(await api.as('hamlet').postMultipart(SUBSCRIPTIONS, { subscriptions: [{ name: 'design' }], invite_only: true }));
      expect(body.subscribed).toEqual({ [String(id('hamlet'))]: ['design'] });
      expect((await mySubscriptions('hamlet'))[0]).toMatchObject({ name: 'design', invite_only: true, history_public_to_subscribers: false });
    });

    it('creates private channels with protected history, or shared history on request', async () => {
      expectSuccess(await subscribe('hamlet', ['protected'], { invite_only: true }));
      expectSuccess(await subscribe('hamlet', ['shared'], { invite_only: true, history_public_to_subscribers: true }));
      const subs = await mySubscriptions('hamlet');
      expect(subs.map((s) => [s.name, s.invite_only, s.history_public_to_subscribers])).toEqual([
        ['protected', true, false],
        ['shared', true, true],
      ]);
    });

    it('keeps public channels\' history public whatever is asked', async () => {
      expectSuccess(await subscribe('hamlet', ['open'], { history_public_to_subscribers: false }));
      expect((await mySubscriptions('hamlet'))[0].history_public_to_subscribers).toBe(true);
    });

    it('strips names, turns newlines of descriptions into spaces, and creates a name given twice once', async () => {
      const body = expectSuccess(await subscribe('hamlet', [{ name: '  design ', description: 'one\ntwo' }, 'Design']));
      expect(body.subscribed).toEqual({ [String(id('hamlet'))]: ['design'] });
      const subs = await mySubscriptions('hamlet');
      expect(subs.map((s) => [s.name, s.description])).toEqual([['design', 'one two']]);
    });

    it('subscribes to an existing channel found case-insensitively, answering with its name', async () => {
      expectSuccess(await subscribe('hamlet', ['Design']));
      const body = expectSuccess(await subscribe('cordelia', ['  design']));
      expect(body.subscribed).toEqual({ [String(id('cordelia'))]: ['Design'] });
    });

    it('assigns Zulip\'s palette colors in order, or the requested color', async () => {
      expectSuccess(await subscribe('hamlet', ['a', 'b', { name: 'c', color: '#123456' }]));
      const colors = (await mySubscriptions('hamlet')).map((s) => [s.name, s.color]);
      expect(colors).toEqual([['a', '#76ce90'], ['b', '#fae589'], ['c', '#123456']]);
    });

    it('returns every subscription property with Zulip\'s defaults', async () => {
      expectSuccess(await subscribe('hamlet', ['design']));
      const [sub] = await mySubscriptions('hamlet');
      expect(sub).toMatchObject({
        color: '#76ce90', is_muted: false, in_home_view: true, pin_to_top: false, desktop_notifications: null,
        audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null,
      });
      expect(Object.keys(sub).sort()).toEqual([
        'audible_notifications', 'can_add_subscribers_group', 'can_administer_channel_group', 'can_create_topic_group',
        'can_delete_any_message_group', 'can_delete_own_message_group', 'can_move_messages_out_of_channel_group',
        'can_move_messages_within_channel_group', 'can_remove_subscribers_group', 'can_resolve_topics_group', 'can_send_message_group',
        'can_subscribe_group', 'color', 'creator_id', 'date_created', 'description', 'desktop_notifications', 'email_notifications',
        'first_message_id', 'folder_id', 'history_public_to_subscribers', 'in_home_view', 'invite_only', 'is_announcement_only',
        'is_archived', 'is_muted', 'is_recently_active', 'is_web_public', 'message_retention_days', 'name', 'pin_to_top',
        'push_notifications', 'rendered_description', 'stream_id', 'stream_post_policy', 'stream_weekly_traffic', 'subscriber_count',
        'topics_policy', 'wildcard_mentions_notify',
      ]);
      expect(sub.can_administer_channel_group).toEqual({ direct_members: [id('hamlet')], direct_subgroups: [] });
    });

    it.each([
      [[{ name: '' }], "Channel name can't be empty."],
      [[{ name: '   ' }], "Channel name can't be empty."],
      [[{ name: 'x'.repeat(61) }], 'Channel name too long (limit: 60 characters).'],
      [[{ name: 'a\u0000b' }], 'Invalid character in channel name, at position 2.'],
      [[{ name: 'fine' }, { name: 'bad\u0007' }], 'Invalid character in channel name, at position 4.'],
    ])('refuses the names %j and stores nothing', async (subs, msg) => {
      await expectRefused(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: subs }), msg, { code: 'BAD_REQUEST' });
    });

    it('refuses a description over 1024 characters', async () => {
      await expectRefused(
        await subscribe('hamlet', [{ name: 'design', description: 'x'.repeat(1025) }]),
        'subscriptions[0]["description"] is too long (limit: 1024 characters)',
      );
    });

    it('refuses an invalid color', async () => {
      await expectRefused(await subscribe('hamlet', [{ name: 'design', color: 'red' }]), 'add.color is not a valid hex color code');
    });

    it('refuses web-public channels', async () => {
      await expectRefused(await subscribe('iago', ['web'], { is_web_public: true }), 'Web-public channels are not enabled.');
    });

    it('requires subscriptions, as a JSON list of objects with a name', async () => {
      await expectRefused(await api.as('hamlet').post(SUBSCRIPTIONS, {}), "Missing 'subscriptions' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      await expectRefused(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: 'design' }), 'subscriptions is not valid JSON');
      await expectRefused(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{}] }), 'subscriptions[0]["name"] field is missing');
      await expectRefused(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: ['design'] }), 'subscriptions[0] is not a dict');
    });

    it('reads is_default_stream, announce and message_retention_days (none is unsupported)', async () => {
      const body = expectSuccess(await subscribe('hamlet', ['design'], { is_default_stream: false, announce: true, message_retention_days: '"realm_default"' }));
      expect(body.ignored_parameters_unsupported).toBeUndefined();
    });
  });

  describe('POST: who may subscribe whom', () => {
    it('refuses guests, even for their own subscription to a public channel', async () => {
      expectSuccess(await subscribe('hamlet', ['general']));
      await api.markEvents();
      await expectRefused(await subscribe('polonius', ['general']), 'Not allowed for guest users');
      await expectRefused(await subscribe('polonius', ['brand new']), 'Not allowed for guest users');
      // Before the parameters are read, as Zulip's decorator refuses.
      await expectRefused(await api.as('polonius').post(SUBSCRIPTIONS, { subscriptions: 'not json' }), 'Not allowed for guest users');
    });

    it('lets members subscribe others to public channels, by email or by id', async () => {
      expectSuccess(await subscribe('hamlet', ['general']));
      const byEmail = expectSuccess(await subscribe('hamlet', ['general'], { principals: [api.user('cordelia').email] }));
      expect(byEmail).toMatchObject({ subscribed: { [String(id('cordelia'))]: ['general'] }, already_subscribed: {} });
      const byId = expectSuccess(await subscribe('cordelia', ['general'], { principals: [id('cordelia'), id('polonius')] }));
      expect(byId).toMatchObject({
        subscribed: { [String(id('polonius'))]: ['general'] },
        already_subscribed: { [String(id('cordelia'))]: ['general'] },
      });
    });

    it('creates a channel for others at once, with the creator not subscribed unless named', async () => {
      const body = expectSuccess(await subscribe('iago', ['ops'], { principals: [id('hamlet'), id('shiva')] }));
      expect(body.subscribed).toEqual({ [String(id('hamlet'))]: ['ops'], [String(id('shiva'))]: ['ops'] });
      expect(await mySubscriptions('iago')).toEqual([]);
      expect((await mySubscriptions('hamlet'))[0]).toMatchObject({ name: 'ops', creator_id: id('iago'), subscriber_count: 2 });
    });

    it('lets a subscriber of a private channel add others', async () => {
      expectSuccess(await subscribe('hamlet', ['core'], { invite_only: true }));
      const body = expectSuccess(await subscribe('hamlet', ['core'], { principals: [id('cordelia')] }));
      expect(body.subscribed).toEqual({ [String(id('cordelia'))]: ['core'] });
    });

    it('refuses outsiders of a private channel, administrators included, and stores nothing', async () => {
      expectSuccess(await subscribe('hamlet', ['core'], { invite_only: true }));
      await api.markEvents();
      await expectRefused(await subscribe('cordelia', ['core']), 'Unable to access channel (core).');
      await expectRefused(await subscribe('iago', ['core', 'fresh']), 'Unable to access channel (core).');
      await expectRefused(await subscribe('cordelia', ['core'], { principals: [id('cordelia')] }), 'Unable to access channel (core).');
    });

    it('with authorization_errors_fatal false, skips the channels it may not join and names them', async () => {
      expectSuccess(await subscribe('hamlet', ['core'], { invite_only: true }));
      expectSuccess(await subscribe('hamlet', ['general']));
      const body = expectSuccess(await subscribe('cordelia', ['core', 'general'], { authorization_errors_fatal: false }));
      expect(body).toEqual({
        result: 'success', msg: '', subscribed: { [String(id('cordelia'))]: ['general'] }, already_subscribed: {}, unauthorized: ['core'],
      });
    });

    it('answers unauthorized: [] when nothing was refused', async () => {
      const body = expectSuccess(await subscribe('hamlet', ['general'], { authorization_errors_fatal: false }));
      expect(body.unauthorized).toEqual([]);
    });

    it('refuses unknown and deactivated principals', async () => {
      expectSuccess(await subscribe('hamlet', ['general']));
      await api.markEvents();
      await expectRefused(await subscribe('hamlet', ['general'], { principals: ['nobody@acme.test'] }), 'No such user');
      await expectRefused(await subscribe('hamlet', ['general'], { principals: [9999] }), 'No such user');
      await expectRefused(await subscribe('hamlet', ['new channel'], { principals: [9999] }), 'No such user');
      await api.givenEvents(usersStream(api.realmId), [userDeactivated(id('cordelia'), api.realmId)]);
      await expectRefused(await subscribe('hamlet', ['general'], { principals: [id('cordelia')] }), 'User is deactivated');
    });

    it('refuses principals that are neither all emails nor all ids', async () => {
      await expectRefused(await subscribe('hamlet', ['general'], { principals: [id('cordelia'), 'x@acme.test'] }), 'principals[1] is not an integer');
    });
  });

  describe('POST: the stream create of a channel the subscriber could not see (the mobile app adds subscriptions to channels it knows)', () => {
    const register = (who: string) => queue(who, ['stream', 'subscription']);
    const kinds = async (who: string, queueId: string) =>
      (await events(who, queueId))
        .map((e) => `${e.type}/${e.op}${e.streams ? ` ${e.streams.map((c: { name: string }) => c.name).join()}` : ''}${e.subscriptions ? ` ${e.subscriptions.map((c: { name: string }) => c.name).join()}` : ''}`);

    it('a new private channel: its member subscribers get stream create before their subscription add; administrators once', async () => {
      const [hamlet, cordelia, iago] = [await register('hamlet'), await register('cordelia'), await register('iago')];
      expectSuccess(await subscribe('hamlet', ['secrets'], { invite_only: true, principals: JSON.stringify([id('hamlet'), id('iago')]) }));
      expect(await kinds('hamlet', hamlet)).toEqual(['stream/create secrets', 'subscription/add secrets']);
      expect(await kinds('iago', iago)).toEqual(['stream/create secrets', 'subscription/add secrets']);
      expect(await kinds('cordelia', cordelia)).toEqual([]);
    });

    it('an existing private channel: a member added later gets stream create first; the others a peer_add', async () => {
      expectSuccess(await subscribe('hamlet', ['secrets'], { invite_only: true }));
      const cordelia = await register('cordelia');
      const hamlet = await register('hamlet');
      expectSuccess(await subscribe('hamlet', ['secrets'], { principals: JSON.stringify([id('cordelia')]) }));
      expect(await kinds('cordelia', cordelia)).toEqual(['stream/create secrets', 'subscription/add secrets']);
      expect(await kinds('hamlet', hamlet)).toEqual(['subscription/peer_add']);
    });

    it('a public channel: a guest subscribed gets stream create first, a member only the subscription', async () => {
      const [polonius, cordelia] = [await register('polonius'), await register('cordelia')];
      expectSuccess(await subscribe('hamlet', ['commons'], { principals: JSON.stringify([id('hamlet'), id('polonius'), id('cordelia')]) }));
      expect(await kinds('polonius', polonius)).toEqual(['stream/create commons', 'subscription/add commons']);
      expect(await kinds('cordelia', cordelia)).toEqual(['stream/create commons', 'subscription/add commons']);
      const later = await register('polonius');
      expectSuccess(await subscribe('hamlet', ['commons'], { principals: JSON.stringify([id('polonius')]) }));
      expect(await kinds('polonius', later)).toEqual([]); // already subscribed: nothing
    });
  });

  describe('POST: resubscribing', () => {
    it('reports channels already subscribed to and stores nothing for them', async () => {
      expectSuccess(await subscribe('hamlet', ['general']));
      await api.markEvents();
      const body = expectSuccess(await subscribe('hamlet', ['general']));
      expect(body).toMatchObject({ subscribed: {}, already_subscribed: { [String(id('hamlet'))]: ['general'] } });
      expect(await api.newEvents()).toEqual([]);
    });

    it('brings a returning subscriber back with their color', async () => {
      expectSuccess(await subscribe('hamlet', ['a', 'b']));
      expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['b'] }));
      expectSuccess(await subscribe('hamlet', ['c']));
      const body = expectSuccess(await subscribe('hamlet', ['b']));
      expect(body.subscribed).toEqual({ [String(id('hamlet'))]: ['b'] });
      expect((await mySubscriptions('hamlet')).map((s) => [s.name, s.color])).toEqual([['a', '#76ce90'], ['b', '#fae589'], ['c', '#a6c7e5']]);
    });
  });

  describe('DELETE', () => {
    it('unsubscribes the caller, then reports them not subscribed', async () => {
      expectSuccess(await subscribe('hamlet', ['general', 'design']));
      const body = expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['general'] }));
      expect(body).toEqual({ result: 'success', msg: '', removed: ['general'], not_removed: [] });
      expect((await mySubscriptions('hamlet')).map((s) => s.name)).toEqual(['design']);
      expect(expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['general'] }))).toMatchObject({ removed: [], not_removed: ['general'] });
    });

    it('takes the parameters from a form body too', async () => {
      expectSuccess(await subscribe('hamlet', ['general']));
      const { email, apiKey } = api.user('hamlet');
      const response = await api.http.delete(SUBSCRIPTIONS).auth(email, apiKey).type('form').send({ subscriptions: JSON.stringify(['general']) });
      expect(expectSuccess(response).removed).toEqual(['general']);
    });

    it('refuses channels that do not exist, naming them, and changes nothing', async () => {
      expectSuccess(await subscribe('hamlet', ['general']));
      await api.markEvents();
      await expectRefused(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['general', 'nope', 'nada'] }), 'Channel(s) (nope, nada) do not exist');
      await expectRefused(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: [''] }), "Channel name can't be empty.");
      await expectRefused(await api.as('hamlet').delete(SUBSCRIPTIONS, {}), "Missing 'subscriptions' argument");
    });

    it('lets a guest leave', async () => {
      expectSuccess(await subscribe('hamlet', ['general'], { principals: [id('polonius')] }));
      expect(expectSuccess(await api.as('polonius').delete(SUBSCRIPTIONS, { subscriptions: ['general'] })).removed).toEqual(['general']);
    });

    it('lets administrators remove others, even from a private channel they are not in', async () => {
      expectSuccess(await subscribe('hamlet', ['core'], { invite_only: true, principals: [id('hamlet'), id('cordelia')] }));
      const body = expectSuccess(await api.as('iago').delete(SUBSCRIPTIONS, { subscriptions: ['core'], principals: [id('cordelia')] }));
      expect(body).toEqual({ result: 'success', msg: '', removed: ['core'], not_removed: [] });
    });

    it('lets a channel\'s creator remove others from it', async () => {
      expectSuccess(await subscribe('hamlet', ['general'], { principals: [id('hamlet'), id('cordelia')] }));
      expect(expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['general'], principals: [api.user('cordelia').email] })).removed)
        .toEqual(['general']);
    });

    it('refuses other members and guests removing others', async () => {
      expectSuccess(await subscribe('iago', ['general'], { principals: [id('hamlet'), id('cordelia'), id('polonius')] }));
      await api.markEvents();
      await expectRefused(await api.as('cordelia').delete(SUBSCRIPTIONS, { subscriptions: ['general'], principals: [id('hamlet')] }), 'Insufficient permission');
      await expectRefused(await api.as('polonius').delete(SUBSCRIPTIONS, { subscriptions: ['general'], principals: [id('hamlet')] }), 'Insufficient permission');
      await expectRefused(await api.as('shiva').delete(SUBSCRIPTIONS, { subscriptions: ['general'], principals: [id('hamlet')] }), 'Insufficient permission');
    });

    it('treats naming oneself in principals as leaving', async () => {
      expectSuccess(await subscribe('iago', ['general'], { principals: [id('cordelia')] }));
      expect(expectSuccess(await api.as('cordelia').delete(SUBSCRIPTIONS, { subscriptions: ['general'], principals: [id('cordelia')] })).removed).toEqual(['general']);
    });

    it('refuses unknown principals', async () => {
      expectSuccess(await subscribe('hamlet', ['general']));
      await api.markEvents();
      await expectRefused(await api.as('iago').delete(SUBSCRIPTIONS, { subscriptions: ['general'], principals: ['ghost@acme.test'] }), 'No such user');
    });

    it('may leave an archived channel', async () => {
      expectSuccess(await subscribe('hamlet', ['old']));
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${await channelId('old')}`));
      expect(expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['old'] })).removed).toEqual(['old']);
    });
  });

  describe('GET', () => {
    it('lists the caller\'s subscriptions by name, without archived channels', async () => {
      expectSuccess(await subscribe('hamlet', ['zeta', 'Alpha', 'beta', 'old']));
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${await channelId('old')}`));
      expect((await mySubscriptions('hamlet')).map((s) => s.name)).toEqual(['Alpha', 'beta', 'zeta']);
      expect(await mySubscriptions('cordelia')).toEqual([]);
    });

    it('includes subscribers on request, leaving out deactivated users', async () => {
      expectSuccess(await subscribe('hamlet', ['general'], { principals: [id('hamlet'), id('cordelia'), id('polonius')] }));
      const [without] = await mySubscriptions('hamlet');
      expect(without).not.toHaveProperty('subscribers');
      await api.givenEvents(usersStream(api.realmId), [userDeactivated(id('cordelia'), api.realmId)]);
      const [sub] = await mySubscriptions('polonius', { include_subscribers: true });
      expect(sub.subscribers).toEqual([id('hamlet'), id('polonius')].sort((a, b) => a - b));
      expect(sub.subscriber_count).toBe(2);
    });

    it('refuses a non-boolean include_subscribers', async () => {
      expectError(await api.as('hamlet').get(SUBSCRIPTIONS, { include_subscribers: 'yes' }), 'include_subscribers is not valid JSON');
    });
  });
});
