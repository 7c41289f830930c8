import { ApiTestClient, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** POST /register's initial state for the personal-data areas, under Zulip's keys. */
describe('POST /register initial state', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia', 'iago', 'polonius'] })));
  afterAll(() => api.close());

  it('includes every section by default, reflecting the user\'s own data', async () => {
    expectSuccess(await api.as('hamlet').post(`/api/v1/users/me/muted_users/${api.user('cordelia').userId}`));
    expectSuccess(await api.as('hamlet').post('/api/v1/saved_snippets', { title: 'Greeting', content: 'Hello!' }));
    expectSuccess(await api.as('hamlet').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'half a thought' }] }));
    const body = expectSuccess(await api.as('hamlet').post('/api/v1/register'));
    expect(body.muted_users).toEqual([{ id: api.user('cordelia').userId, timestamp: expect.any(Number) }]);
    expect(body.saved_snippets).toEqual([expect.objectContaining({ title: 'Greeting', content: 'Hello!' })]);
    expect(body.drafts).toEqual([expect.objectContaining({ content: 'half a thought', type: '' })]);
    expect(body.user_settings).toMatchObject({ enable_drafts_synchronization: true, twenty_four_hour_time: expect.any(Boolean) });
    expect(typeof body.user_status).toBe('object');
    // Another user's register shows none of hamlet's personal data.
    const other = expectSuccess(await api.as('cordelia').post('/api/v1/register'));
    expect(other).toMatchObject({ muted_users: [], saved_snippets: [], drafts: [] });
  });

  it('fetches only the requested types', async () => {
    const body = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['muted_users'] }));
    expect(body).toHaveProperty('muted_users');
    expect(body).not.toHaveProperty('drafts');
    expect(body).not.toHaveProperty('user_settings');
    const byEventTypes = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['drafts'] }));
    expect(Object.keys(byEventTypes)).toContain('drafts');
    expect(byEventTypes).not.toHaveProperty('muted_users');
  });

  const { id, register } = personaHelpers(() => api);

  describe('message: max_message_id', () => {
    it('is -1 before the user has a message, then the newest message the user has', async () => {
      expect((await register('polonius', { fetch_event_types: ['message'] })).max_message_id).toBe(-1);
      const { id: sent } = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'hi' }));
      expect((await register('cordelia', { fetch_event_types: ['message'] })).max_message_id).toBe(sent);
      // Not a recipient: the message is not theirs.
      expect((await register('polonius', { fetch_event_types: ['message'] })).max_message_id).toBe(-1);
    });
  });

  describe('realm_user', () => {
    it('lists users, cross_realm_bots and the user\'s own identity and permissions', async () => {
      const body = await register('hamlet', { fetch_event_types: ['realm_user'] });
      expect(body.realm_users.map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining(['hamlet@acme.test', 'cordelia@acme.test', 'iago@acme.test']));
      expect(body.realm_non_active_users).toEqual([]);
      expect(Array.isArray(body.cross_realm_bots)).toBe(true);
      expect(body).toMatchObject({
        user_id: id('hamlet'), email: 'hamlet@acme.test', delivery_email: 'hamlet@acme.test', full_name: expect.any(String),
        is_admin: false, is_owner: false, is_moderator: false, is_guest: false, is_billing_admin: false,
        can_create_streams: true, can_create_public_streams: true, can_create_private_streams: true, can_create_web_public_streams: false,
        can_subscribe_other_users: true, avatar_url: expect.any(String), avatar_url_medium: expect.any(String),
      });
      expect(body).not.toHaveProperty('realm_bots');
    });

    it('says what an administrator and a guest are', async () => {
      expect(await register('iago', { fetch_event_types: ['realm_user'] })).toMatchObject({ user_id: id('iago'), is_admin: true, is_guest: false });
      expect(await register('polonius', { fetch_event_types: ['realm_user'] })).toMatchObject({
        user_id: id('polonius'), is_admin: false, is_guest: true, can_create_streams: false, can_subscribe_other_users: false,
      });
    });
  });

  describe('realm_bot', () => {
    it('lists the bots the user owns, with their API keys; an administrator sees every bot', async () => {
      const bot = expectSuccess(await api.as('cordelia').post('/api/v1/bots', { full_name: 'Cordelia Bot', short_name: 'cordelia' }));
      const own = (await register('cordelia', { fetch_event_types: ['realm_bot'] })).realm_bots;
      expect(own).toEqual([
        expect.objectContaining({ user_id: bot.user_id, full_name: 'Cordelia Bot', api_key: bot.api_key, owner_id: id('cordelia'), bot_type: 1, is_active: true, services: [] }),
      ]);
      expect((await register('hamlet', { fetch_event_types: ['realm_bot'] })).realm_bots).toEqual([]);
      expect((await register('iago', { fetch_event_types: ['realm_bot'] })).realm_bots.map((b: { user_id: number }) => b.user_id)).toContain(bot.user_id);
    });
  });

  describe('starred_messages', () => {
    it('lists the ids the user starred', async () => {
      const { id: messageId } = expectSuccess(await api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'star me' }));
      expect((await register('cordelia', { fetch_event_types: ['starred_messages'] })).starred_messages).toEqual([]);
      expectSuccess(await api.as('cordelia').post('/api/v1/messages/flags', { messages: JSON.stringify([messageId]), op: 'add', flag: 'starred' }));
      expect((await register('cordelia', { fetch_event_types: ['starred_messages'] })).starred_messages).toEqual([messageId]);
      expect((await register('hamlet', { fetch_event_types: ['starred_messages'] })).starred_messages).toEqual([]);
    });
  });

  describe('muted_topics and user_topic', () => {
    it('muted_topics lists [channel, topic, time] of muted topics, unless user_topic is asked for too', async () => {
      expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }] }));
      const verona = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'Verona' })).stream_id;
      expectSuccess(await api.as('hamlet').post('/api/v1/user_topics', { stream_id: verona, topic: 'noise', visibility_policy: 1 }));
      const legacy = await register('hamlet', { fetch_event_types: ['muted_topics'] });
      expect(legacy.muted_topics).toEqual([['Verona', 'noise', expect.any(Number)]]);
      const both = await register('hamlet', { fetch_event_types: ['muted_topics', 'user_topic'] });
      expect(both).not.toHaveProperty('muted_topics');
      expect(both.user_topics).toEqual([expect.objectContaining({ stream_id: verona, topic_name: 'noise', visibility_policy: 1 })]);
      // Every section (no types named): both.
      expect(await register('hamlet')).toMatchObject({ muted_topics: legacy.muted_topics, user_topics: both.user_topics });
    });
  });

  describe('realm', () => {
    it('has the settings and server values clients read', async () => {
      const body = await register('hamlet', { fetch_event_types: ['realm'] });
      expect(body).toMatchObject({
        realm_name: expect.any(String), realm_message_retention_days: -1, realm_allow_edit_history: true, realm_message_edit_history_visibility_policy: 'all',
        realm_allow_message_editing: true, realm_message_content_edit_limit_seconds: 600, realm_topics_policy: 'allow_empty_topic',
        realm_can_move_messages_between_topics_group: expect.any(Number), realm_can_move_messages_between_channels_group: expect.any(Number),
        realm_move_messages_within_stream_limit_seconds: expect.any(Number), realm_presence_disabled: false,
        realm_url: expect.stringMatching(/^http/), realm_uri: expect.stringMatching(/^http/), realm_icon_url: expect.any(String), realm_date_created: expect.any(Number),
        max_avatar_file_size_mib: 5, max_stream_name_length: 60, max_stream_description_length: 1024, realm_new_stream_announcements_stream_id: -1,
        server_typing_started_expiry_period_milliseconds: 45000, event_queue_longpoll_timeout_seconds: 90, realm_email_auth_enabled: true,
      });
      // The legacy forms the mobile app still reads, consistent with the settings that replaced them.
      expect(body).toMatchObject({ realm_wildcard_mention_policy: 5, realm_mandatory_topics: false, realm_enable_read_receipts: true, realm_waiting_period_threshold: 0 });
      expect(body.server_emoji_data_url).toMatch(/^http.*\/static\/generated\/emoji\/emoji_api\.json$/);
      // Always sent by Zulip (feature level 273); no thumbnails here, so none offered.
      expect(body.server_thumbnail_formats).toEqual([]);
      // Zulip's edit_topic_policy was replaced by the group settings (feature level 316): not sent.
      expect(body).not.toHaveProperty('realm_edit_topic_policy');
    });

    it('server_emoji_data_url serves Zulip\'s emoji_api.json: code_to_names', async () => {
      const url = new URL((await register('hamlet', { fetch_event_types: ['realm'] })).server_emoji_data_url);
      const response = await api.http.get(url.pathname);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      const { code_to_names } = JSON.parse(response.text);
      expect(code_to_names['1f44d']).toEqual(expect.arrayContaining(['+1']));
      expect(code_to_names['1f600'][0]).toBe('grinning');
      expect(Object.keys(code_to_names).length).toBeGreaterThan(1000);
    });

    it('version fields come with every register, whatever was asked for', async () => {
      const body = await register('hamlet', { fetch_event_types: ['drafts'] });
      expect(body).toMatchObject({ zulip_feature_level: 494, zulip_version: expect.stringMatching(/^\d+\.\d+/), max_file_upload_size_mib: 100 });
    });
  });

  describe('sections for what this server does not have: present and empty', () => {
    it.each([
      ['realm_domains', { realm_domains: [] }],
      ['realm_playgrounds', { realm_playgrounds: [] }],
      ['realm_filters', { realm_filters: [] }],
      ['default_streams', { realm_default_streams: [] }],
      ['default_stream_groups', { realm_default_stream_groups: [] }],
      ['onboarding_steps', { onboarding_steps: [] }],
      ['realm_embedded_bots', { realm_embedded_bots: [] }],
      ['realm_incoming_webhook_bots', { realm_incoming_webhook_bots: [] }],
      ['video_calls', { has_zoom_token: false }],
      ['giphy', { giphy_api_key: '' }],
    ])('%s', async (type, expected) => {
      expect(await register('hamlet', { fetch_event_types: [type] })).toMatchObject(expected);
    });
  });

  it('answers zulip-terminal\'s register request with every key the client reads at start', async () => {
    // zulipterminal/model.py initial_data_to_fetch and the keys it reads from the answer (realm_user_groups and presence belong to other areas).
    const body = await register('hamlet', {
      event_types: ['message', 'update_message', 'reaction', 'subscription', 'typing', 'update_message_flags', 'user_settings', 'realm_emoji', 'realm_user'],
      fetch_event_types: ['realm', 'subscription', 'message', 'starred_messages', 'update_message_flags', 'muted_topics', 'realm_user', 'user_settings', 'realm_emoji', 'custom_profile_fields', 'zulip_version'],
      client_gravatar: true, apply_markdown: true, include_subscribers: true,
    });
    for (const key of [
      'zulip_version', 'zulip_feature_level', 'max_message_id', 'queue_id', 'last_event_id', 'subscriptions', 'muted_topics', 'realm_emoji', 'user_settings',
      'realm_message_retention_days', 'user_id', 'email', 'full_name', 'realm_name', 'custom_profile_fields', 'realm_users', 'cross_realm_bots',
      'realm_allow_message_editing', 'realm_message_content_edit_limit_seconds', 'starred_messages', 'realm_allow_edit_history', 'unread_msgs',
    ]) expect(body).toHaveProperty(key);
  });
});
