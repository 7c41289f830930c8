import { usersStream } from '@app/domain';
import { userDeactivated, personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * The channel endpoints (GET/PATCH/DELETE /streams…, GET /get_stream_id, members, topics) through
 * the real HTTP stack. Setup uses POST /users/me/subscriptions.
 */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';

describe('channels', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, events: eventsAfter, refused: expectRefused } = personaHelpers(() => api);
  /** Creates a channel as `who`, subscribing `principals` (default: the creator); returns its id. */
  const create = async (who: string, name: string, options: Record<string, unknown> = {}): Promise<number> => {
    expectSuccess(await api.as(who).post(SUBSCRIPTIONS, { subscriptions: [{ name, description: `About ${name}` }], ...options }));
    const streams = expectSuccess(await api.as('iago').get('/api/v1/streams', { include_all: true })).streams as { name: string; stream_id: number }[];
    return streams.find((s) => s.name === name)!.stream_id;
  };
  const names = async (who: string, query: Record<string, unknown> = {}) =>
    (expectSuccess(await api.as(who).get('/api/v1/streams', query)).streams as { name: string }[]).map((s) => s.name);

  describe('GET /streams', () => {
    it('lists public channels and the caller\'s private ones, by name', async () => {
      await create('hamlet', 'zeta');
      await create('hamlet', 'Alpha');
      await create('hamlet', 'core', { invite_only: true });
      await create('cordelia', 'secret', { invite_only: true });
      expect(await names('hamlet')).toEqual(['Alpha', 'core', 'zeta']);
      expect(await names('cordelia')).toEqual(['Alpha', 'secret', 'zeta']);
      expect(await names('iago')).toEqual(['Alpha', 'zeta']);
    });

    it('shows guests only their own channels', async () => {
      await create('hamlet', 'general');
      await create('hamlet', 'guests', { principals: [id('hamlet'), id('polonius')] });
      expect(await names('polonius')).toEqual(['guests']);
      expect(await names('polonius', { include_all: true })).toEqual(['guests']);
    });

    it('with include_all, shows administrators every channel and members what they can see', async () => {
      await create('hamlet', 'general');
      await create('cordelia', 'secret', { invite_only: true });
      expect(await names('iago', { include_all: true })).toEqual(['general', 'secret']);
      expect(await names('shiva', { include_all_active: true })).toEqual(['general']);
    });

    it('filters by subscription and publicity', async () => {
      await create('hamlet', 'mine');
      await create('cordelia', 'theirs');
      expect(await names('hamlet', { include_public: false })).toEqual(['mine']);
      expect(await names('hamlet', { include_subscribed: false })).toEqual(['mine', 'theirs']);
      expect(await names('hamlet', { include_public: false, include_subscribed: false })).toEqual([]);
      expect(await names('hamlet', { include_can_access_content: true })).toEqual(['mine', 'theirs']);
    });

    it('leaves archived channels out unless asked', async () => {
      const old = await create('hamlet', 'old');
      await create('hamlet', 'new');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${old}`));
      expect(await names('hamlet')).toEqual(['new']);
      expect(await names('hamlet', { exclude_archived: false })).toEqual(['new', 'old']);
    });

    it('marks default channels on request (this one is not)', async () => {
      await create('hamlet', 'general');
      const [stream] = expectSuccess(await api.as('hamlet').get('/api/v1/streams', { include_default: true })).streams;
      expect(stream.is_default).toBe(false);
    });

    it('refuses a parameter that is not a JSON boolean', async () => {
      expectError(await api.as('hamlet').get('/api/v1/streams', { include_public: 'yes' }), 'include_public is not valid JSON');
    });
  });

  describe('GET /streams/{stream_id}', () => {
    it('returns Zulip\'s stream object', async () => {
      const channelId = await create('hamlet', 'general', { principals: [id('hamlet'), id('cordelia')] });
      const { stream } = expectSuccess(await api.as('cordelia').get(`/api/v1/streams/${channelId}`));
      expect(stream).toEqual({
        stream_id: channelId, name: 'general', description: 'About general', rendered_description: '<p>About general</p>',
        invite_only: false, is_web_public: false, history_public_to_subscribers: true, is_archived: false, creator_id: id('hamlet'),
        date_created: Math.floor(api.clock.now().getTime() / 1000), first_message_id: null, folder_id: null, is_recently_active: true,
        message_retention_days: null, stream_post_policy: 1, is_announcement_only: false, stream_weekly_traffic: null, subscriber_count: 2,
        topics_policy: 'inherit',
        can_add_subscribers_group: expect.any(Number), can_administer_channel_group: { direct_members: [id('hamlet')], direct_subgroups: [] },
        can_create_topic_group: expect.any(Number), can_delete_any_message_group: expect.any(Number), can_delete_own_message_group: expect.any(Number),
        can_move_messages_out_of_channel_group: expect.any(Number), can_move_messages_within_channel_group: expect.any(Number),
        can_remove_subscribers_group: expect.any(Number), can_resolve_topics_group: expect.any(Number), can_send_message_group: expect.any(Number),
        can_subscribe_group: expect.any(Number),
      });
      // role:nobody for the permissions nobody holds, role:everyone for posting and topics, role:administrators for removals.
      expect(stream.can_add_subscribers_group).toBe(stream.can_subscribe_group);
      expect(stream.can_send_message_group).toBe(stream.can_create_topic_group);
      expect(new Set([stream.can_add_subscribers_group, stream.can_send_message_group, stream.can_remove_subscribers_group]).size).toBe(3);
    });

    it('answers "Invalid channel ID" for unknown, inaccessible and archived channels', async () => {
      const secret = await create('cordelia', 'secret', { invite_only: true });
      const general = await create('hamlet', 'general');
      expectError(await api.as('hamlet').get('/api/v1/streams/9999'), 'Invalid channel ID');
      expectError(await api.as('hamlet').get(`/api/v1/streams/${secret}`), 'Invalid channel ID');
      expectError(await api.as('polonius').get(`/api/v1/streams/${general}`), 'Invalid channel ID');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${general}`));
      expectError(await api.as('hamlet').get(`/api/v1/streams/${general}`), 'Invalid channel ID');
    });

    it('shows administrators a private channel they are not in', async () => {
      const secret = await create('cordelia', 'secret', { invite_only: true });
      expect(expectSuccess(await api.as('iago').get(`/api/v1/streams/${secret}`)).stream.name).toBe('secret');
    });

    it('treats a stream id that is not a number as an unknown route', async () => {
      expectError(await api.as('hamlet').get('/api/v1/streams/abc'), 'Not Found', { status: 404 });
    });
  });

  describe('GET /get_stream_id', () => {
    it('finds a channel by name, case-insensitively', async () => {
      const channelId = await create('hamlet', 'Design');
      expect(expectSuccess(await api.as('cordelia').get('/api/v1/get_stream_id', { stream: ' design ' })).stream_id).toBe(channelId);
    });

    it('refuses unknown and inaccessible names', async () => {
      await create('cordelia', 'secret', { invite_only: true });
      expectError(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'nope' }), "Invalid channel name 'nope'");
      expectError(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'secret' }), "Invalid channel name 'secret'");
      expectError(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'secret' }), "Invalid channel name 'secret'");
      expectError(await api.as('hamlet').get('/api/v1/get_stream_id'), "Missing 'stream' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    });
  });

  describe('PATCH /streams/{stream_id}', () => {
    it('lets the creator rename their channel and change its description', async () => {
      const channelId = await create('hamlet', 'general');
      expectSuccess(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { new_name: ' lobby ', description: 'Say\nhello' }));
      const { stream } = expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${channelId}`));
      expect(stream).toMatchObject({ name: 'lobby', description: 'Say hello', rendered_description: '<p>Say hello</p>' });
      expect(await names('cordelia')).toEqual(['lobby']);
    });

    it('takes its parameters from the query string too', async () => {
      const channelId = await create('hamlet', 'general');
      const { email, apiKey } = api.user('iago');
      expectSuccess(await api.http.patch(`/api/v1/streams/${channelId}?new_name=lobby`).auth(email, apiKey));
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${channelId}`)).stream.name).toBe('lobby');
    });

    it('allows changing only the letter case, and refuses the same name', async () => {
      const channelId = await create('hamlet', 'general');
      expectSuccess(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { new_name: 'General' }));
      await api.markEvents();
      await expectRefused(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { new_name: 'General' }), 'Channel already has that name.');
    });

    it('refuses a name in use and invalid names, changing nothing', async () => {
      const channelId = await create('hamlet', 'general');
      await create('hamlet', 'design');
      await api.markEvents();
      await expectRefused(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { new_name: 'DESIGN', description: 'x' }), 'Channel name already in use.');
      await expectRefused(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { new_name: '' }), "Channel name can't be empty.");
      await expectRefused(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { new_name: 'a\u0000' }), 'Invalid character in channel name, at position 2.');
      await expectRefused(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { description: 'x'.repeat(1025) }), 'description is too long (limit: 1024 characters)');
    });

    it('makes a channel private with protected history, and public again', async () => {
      const channelId = await create('hamlet', 'general');
      expectSuccess(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { is_private: true }));
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${channelId}`)).stream).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
      expect(await names('cordelia')).toEqual([]);
      expectSuccess(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { history_public_to_subscribers: true }));
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${channelId}`)).stream).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
      expectSuccess(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { is_private: false }));
      expect(await names('cordelia')).toEqual(['general']);
    });

    it('refuses impossible privacy settings and web-public channels', async () => {
      const channelId = await create('hamlet', 'general');
      await api.markEvents();
      await expectRefused(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { history_public_to_subscribers: false }), 'Invalid parameters');
      await expectRefused(await api.as('hamlet').patch(`/api/v1/streams/${channelId}`, { is_private: true, is_web_public: true }), 'Invalid parameters');
      await expectRefused(await api.as('iago').patch(`/api/v1/streams/${channelId}`, { is_web_public: true }), 'Web-public channels are not enabled.');
    });

    it('requires content access to change whether a channel is private', async () => {
      const secret = await create('cordelia', 'secret', { invite_only: true });
      await api.markEvents();
      await expectRefused(await api.as('iago').patch(`/api/v1/streams/${secret}`, { is_private: false }), 'Channel content access is required.');
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${secret}`, { new_name: 'hidden' }));
    });

    it('refuses members who did not create the channel, and guests', async () => {
      const general = await create('hamlet', 'general', { principals: [id('hamlet'), id('polonius')] });
      const secret = await create('hamlet', 'secret', { invite_only: true });
      await api.markEvents();
      await expectRefused(await api.as('cordelia').patch(`/api/v1/streams/${general}`, { new_name: 'x' }), 'You do not have permission to administer this channel.');
      await expectRefused(await api.as('shiva').patch(`/api/v1/streams/${general}`, { new_name: 'x' }), 'You do not have permission to administer this channel.');
      await expectRefused(await api.as('polonius').patch(`/api/v1/streams/${general}`, { new_name: 'x' }), 'You do not have permission to administer this channel.');
      await expectRefused(await api.as('cordelia').patch(`/api/v1/streams/${secret}`, { new_name: 'x' }), 'Invalid channel ID');
      await expectRefused(await api.as('iago').patch('/api/v1/streams/9999', { new_name: 'x' }), 'Invalid channel ID');
    });

    it('unarchives a channel with is_archived false', async () => {
      const channelId = await create('hamlet', 'general');
      await api.markEvents();
      await expectRefused(await api.as('iago').patch(`/api/v1/streams/${channelId}`, { is_archived: false }), 'Channel is not currently deactivated');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${channelId}`));
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${channelId}`, { is_archived: false }));
      expect(await names('hamlet')).toEqual(['general']);
      expect(expectSuccess(await api.as('hamlet').get(SUBSCRIPTIONS)).subscriptions).toHaveLength(1);
    });
  });

  describe('DELETE /streams/{stream_id}', () => {
    it('archives a channel: gone from lists, kept by name and subscriptions', async () => {
      const channelId = await create('hamlet', 'general');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${channelId}`));
      expect(await names('hamlet')).toEqual([]);
      expect(expectSuccess(await api.as('hamlet').get(SUBSCRIPTIONS)).subscriptions).toEqual([]);
      const archived = (expectSuccess(await api.as('hamlet').get('/api/v1/streams', { exclude_archived: false })).streams as Record<string, unknown>[]);
      expect(archived).toEqual([expect.objectContaining({ name: 'general', is_archived: true, subscriber_count: 1 })]);
    });

    it('sends the is_archived update and then stream/delete; unarchiving, the update and then stream/create (as Zulip to clients without archived_channels)', async () => {
      const channelId = await create('hamlet', 'general');
      const { queue_id } = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['stream'], client_capabilities: { include_deactivated_groups: true } }));
      const events = async (after: number) => (await eventsAfter('hamlet', queue_id, after)).map(({ id: _id, ...e }) => e);
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${channelId}`));
      expect(await events(-1)).toEqual([
        { type: 'stream', op: 'update', stream_id: channelId, name: 'general', property: 'is_archived', value: true },
        { type: 'stream', op: 'delete', streams: [{ stream_id: channelId }], stream_ids: [channelId] },
      ]);
      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${channelId}`, { is_archived: false }));
      expect(await events(1)).toEqual([
        { type: 'stream', op: 'update', stream_id: channelId, name: 'general', property: 'is_archived', value: false },
        { type: 'stream', op: 'create', streams: [expect.objectContaining({ stream_id: channelId, name: 'general', is_archived: false })] },
      ]);
    });

    it('lets the creator archive their channel, not other members', async () => {
      const channelId = await create('hamlet', 'general');
      await api.markEvents();
      await expectRefused(await api.as('cordelia').delete(`/api/v1/streams/${channelId}`), 'You do not have permission to administer this channel.');
      expectSuccess(await api.as('hamlet').delete(`/api/v1/streams/${channelId}`));
    });

    it('refuses an archived or unknown channel', async () => {
      const channelId = await create('hamlet', 'general');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${channelId}`));
      await api.markEvents();
      await expectRefused(await api.as('iago').delete(`/api/v1/streams/${channelId}`), 'Channel is already deactivated');
      await expectRefused(await api.as('iago').delete('/api/v1/streams/9999'), 'Invalid channel ID');
      expectError(await api.as('iago').delete('/api/v1/streams/-1'), 'Not Found', { status: 404 });
    });

    it('lets an administrator archive a private channel they are not in', async () => {
      const secret = await create('cordelia', 'secret', { invite_only: true });
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${secret}`));
    });
  });

  describe('GET /streams/{stream_id}/members', () => {
    it('lists the subscribers\' ids, ascending, without deactivated users', async () => {
      const channelId = await create('iago', 'general', { principals: [id('polonius'), id('hamlet'), id('cordelia')] });
      const expected = [id('hamlet'), id('cordelia'), id('polonius')].sort((a, b) => a - b);
      expect(expectSuccess(await api.as('shiva').get(`/api/v1/streams/${channelId}/members`)).subscribers).toEqual(expected);
      await api.givenEvents(usersStream(api.realmId), [userDeactivated(id('cordelia'), api.realmId)]);
      expect(expectSuccess(await api.as('polonius').get(`/api/v1/streams/${channelId}/members`)).subscribers).toEqual(expected.filter((u) => u !== id('cordelia')));
    });

    it('keeps private channels\' members to subscribers and administrators', async () => {
      const secret = await create('cordelia', 'secret', { invite_only: true });
      const general = await create('hamlet', 'general');
      expect(expectSuccess(await api.as('iago').get(`/api/v1/streams/${secret}/members`)).subscribers).toEqual([id('cordelia')]);
      expectError(await api.as('hamlet').get(`/api/v1/streams/${secret}/members`), 'Invalid channel ID');
      expectError(await api.as('polonius').get(`/api/v1/streams/${general}/members`), 'Invalid channel ID');
    });
  });

  describe('GET /users/me/{stream_id}/topics', () => {
    it('lists no topics before any message is sent', async () => {
      const channelId = await create('hamlet', 'general');
      expect(expectSuccess(await api.as('cordelia').get(`/api/v1/users/me/${channelId}/topics`))).toEqual({ result: 'success', msg: '', topics: [] });
    });

    it('requires access to the channel\'s content', async () => {
      const secret = await create('cordelia', 'secret', { invite_only: true });
      expectError(await api.as('hamlet').get(`/api/v1/users/me/${secret}/topics`), 'Invalid channel ID');
      expectError(await api.as('iago').get(`/api/v1/users/me/${secret}/topics`), 'Invalid channel ID');
      expectSuccess(await api.as('cordelia').get(`/api/v1/users/me/${secret}/topics`, { allow_empty_topic_name: true }));
    });
  });

  describe('GET /streams/{id}/email_address', () => {
    it('answers the empty address (no email gateway), after checking the channel and the sender', async () => {
      const verona = await create('hamlet', 'Verona');
      expect(expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${verona}/email_address`))).toMatchObject({ email: '' });
      expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${verona}/email_address`, { sender_id: id('hamlet') }));
      const bot = expectSuccess(await api.as('hamlet').post('/api/v1/bots', { full_name: 'Mail Bot', short_name: 'mail' }));
      expectSuccess(await api.as('hamlet').get(`/api/v1/streams/${verona}/email_address`, { sender_id: bot.user_id }));
      await api.markEvents();
      await expectRefused(await api.as('hamlet').get(`/api/v1/streams/${verona}/email_address`, { sender_id: id('cordelia') }), 'No such bot');
      await expectRefused(await api.as('hamlet').get('/api/v1/streams/9999/email_address'), 'Invalid channel ID');
      const secret = await create('cordelia', 'secret', { invite_only: true });
      await api.markEvents();
      await expectRefused(await api.as('hamlet').get(`/api/v1/streams/${secret}/email_address`), 'Invalid channel ID');
    });
  });
});
