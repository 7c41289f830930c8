import { UserSettingsQueries } from '@app/application';
import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/**
 * PATCH /settings through the real HTTP stack (≈ zerver/tests/test_settings.py).
 * Personas: iago administrator, desdemona owner, shiva moderator, hamlet and cordelia members, polonius guest.
 */
const SETTINGS = '/api/v1/settings';

describe('PATCH /settings', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, queue: queueOf, events: eventsOf, refused: expectRefused } = personaHelpers(() => api);
  const settingsOf = (name: string) => api.app.get(UserSettingsQueries).settingsOf(id(name));

  describe('own settings', () => {
    it('changes settings of every kind and answers with the bare envelope', async () => {
      const body = expectSuccess(await api.as('hamlet').patch(SETTINGS, {
        twenty_four_hour_time: true, color_scheme: 2, emojiset: 'text', web_home_view: 'recent', default_language: 'de',
        notification_sound: 'ding', email_notifications_batching_period_seconds: 300, web_animate_image_previews: 'never',
        enable_stream_push_notifications: true, resolved_topic_notice_auto_read_policy: 'never', web_font_size_px: 18,
      }));
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await settingsOf('hamlet')).toMatchObject({
        twenty_four_hour_time: true, color_scheme: 2, emojiset: 'text', web_home_view: 'recent', default_language: 'de',
        notification_sound: 'ding', email_notifications_batching_period_seconds: 300, web_animate_image_previews: 'never',
        enable_stream_push_notifications: true, resolved_topic_notice_auto_read_policy: 'never', web_font_size_px: 18,
      });
      expect(await api.app.get(UserSettingsQueries).settingsOf(id('cordelia'))).toMatchObject({ twenty_four_hour_time: false, color_scheme: 1 });
    });

    it('records one event per changed setting on the user\'s stream, and none for unchanged ones', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { color_scheme: 2, starred_message_counts: true }));
      const events = await api.newEvents();
      expect(events.map((e) => [e.streamId, e.type, e.data.property, e.data.oldValue, e.data.newValue, e.data.editedBySelf])).toEqual([
        [`user_settings-${id('hamlet')}`, 'UserSettingChanged', 'color_scheme', 1, 2, true],
      ]);
    });

    it('accepts parameters in the query string, as zulip-js sends PATCH', async () => {
      const { email, apiKey } = api.user('hamlet');
      expectSuccess(await api.http.patch(SETTINGS).query({ left_side_userlist: 'true', user_list_style: '1' }).auth(email, apiKey));
      expect(await settingsOf('hamlet')).toMatchObject({ left_side_userlist: true, user_list_style: 1 });
    });

    it('serves the deprecated /settings/display and /settings/notifications', async () => {
      expectSuccess(await api.as('hamlet').patch(`${SETTINGS}/display`, { high_contrast_mode: true }));
      expectSuccess(await api.as('hamlet').patch(`${SETTINGS}/notifications`, { enable_sounds: false }));
      expect(await settingsOf('hamlet')).toMatchObject({ high_contrast_mode: true, enable_sounds: false });
    });

    it('lists parameters it does not support', async () => {
      const body = expectSuccess(await api.as('hamlet').patch(SETTINGS, { dense_mode: true, twenty_four_hour_time: true, frobnicate: 'x' }));
      expect(body.ignored_parameters_unsupported).toEqual(['dense_mode', 'frobnicate']);
    });

    it('stores the time zone, a link under its canonical name, and shows it on the user', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { timezone: 'US/Mountain' }));
      expect((await settingsOf('hamlet')).timezone).toBe('America/Denver');
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).timezone).toBe('America/Denver');
    });

    it('sends a time zone change as realm_user update to the users who can see the user, and user_settings update to the user', async () => {
      const queue = (who: string) => queueOf(who, ['realm_user', 'user_settings']);
      const events = async (who: string, queueId: string) => (await eventsOf(who, queueId)).map(({ id: _id, ...e }) => e);
      const [mine, theirs] = [await queue('hamlet'), await queue('cordelia')];
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { timezone: 'US/Mountain' }));
      // do_change_user_setting: "Updates to the time zone display setting are sent to all users".
      const person = { type: 'realm_user', op: 'update', person: { email: api.user('hamlet').email, user_id: id('hamlet'), timezone: 'America/Denver' } };
      expect(await events('cordelia', theirs)).toEqual([person]);
      expect(await events('hamlet', mine)).toEqual([{ type: 'user_settings', op: 'update', property: 'timezone', value: 'America/Denver' }, person]);
    });

    it('refuses bad values with Zulip\'s messages, changing nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ color_scheme: 4 }, 'Invalid color_scheme: Value error, Not in the list of possible values'],
        [{ web_channel_default_view: 5 }, 'Invalid web_channel_default_view: Value error, Not in the list of possible values'],
        [{ twenty_four_hour_time: 'yes' }, 'twenty_four_hour_time is not valid JSON'],
        [{ twenty_four_hour_time: 1 }, 'twenty_four_hour_time is not a boolean'],
        [{ web_font_size_px: 'big' }, 'web_font_size_px is not valid JSON'],
        [{ emojiset: 'comic' }, 'Invalid emojiset: Value error, Not in the list of possible values'],
        [{ web_home_view: 'home' }, 'Invalid web_home_view: Value error, Not in the list of possible values'],
        [{ web_animate_image_previews: 'sometimes' }, 'Invalid web_animate_image_previews: Value error, Not in the list of possible values'],
        [{ resolved_topic_notice_auto_read_policy: 'sometimes' }, 'Invalid resolved_topic_notice_auto_read_policy'],
        [{ timezone: 'Mars/Olympus' }, 'Invalid timezone: Value error, Not a recognized time zone'],
        [{ timezone: '+05:00' }, 'Invalid timezone: Value error, Not a recognized time zone'],
        [{ default_language: 'xx' }, 'Invalid default_language'],
        [{ notification_sound: 'boing' }, "Invalid notification sound 'boing'"],
        [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
        [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
        [{ full_name: 'x' }, 'Name too short!'],
        [{ full_name: 'Opheli*' }, 'Invalid characters in name!'],
        [{ twenty_four_hour_time: true, notification_sound: 'boing' }, "Invalid notification sound 'boing'"],
        [{ twenty_four_hour_time: true, full_name: 'x'.repeat(101) }, 'Name too long!'],
      ];
      for (const [params, msg] of cases) await expectRefused(await api.as('hamlet').patch(SETTINGS, params), msg);
      expect((await settingsOf('hamlet')).twenty_four_hour_time).toBe(false);
    });

    it('accepts "none" as the notification sound', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { notification_sound: 'none' }));
      expect((await settingsOf('hamlet')).notification_sound).toBe('none');
    });

    it('changes the name through the users stream', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { full_name: '  Prince Hamlet ' }));
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).full_name).toBe('Prince Hamlet');
    });

    it('deletes the user\'s drafts on the server when draft synchronization is turned off', async () => {
      const draft = { type: '', to: [], topic: '', content: 'Unsent thoughts' };
      expectSuccess(await api.as('hamlet').post('/api/v1/drafts', { drafts: [draft, draft] }));
      expectSuccess(await api.as('cordelia').post('/api/v1/drafts', { drafts: [draft] }));
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { enable_drafts_synchronization: false }));
      expect((await settingsOf('hamlet')).enable_drafts_synchronization).toBe(false);
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { enable_drafts_synchronization: true }));
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/drafts')).count).toBe(0);
      expect(expectSuccess(await api.as('cordelia').get('/api/v1/drafts')).count).toBe(1);
    });

    it('refuses bots', async () => {
      const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Settings Bot', shortName: 'settings', ownerId: id('hamlet') }));
      await api.markEvents();
      await expectRefused(await api.http.patch(SETTINGS).auth(bot.email, bot.apiKey).type('form').send({ color_scheme: '2' }), 'This endpoint does not accept bot requests.');
    });
  });

  describe('password', () => {
    it('changes it with the current one', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { old_password: 'hamlet-password', new_password: 'a-new-secret' }));
      expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: api.user('hamlet').email, password: 'a-new-secret' }));
      expectError(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: api.user('hamlet').email, password: 'hamlet-password' }), 'Your username or password is incorrect', { status: 401 });
    });

    it('wants the right current password, and a strong enough new one', async () => {
      await expectRefused(await api.as('hamlet').patch(SETTINGS, { old_password: 'bad_password', new_password: 'a-new-secret' }), 'Wrong password!');
      await expectRefused(await api.as('hamlet').patch(SETTINGS, { new_password: 'a-new-secret' }), 'Wrong password!');
      await expectRefused(await api.as('hamlet').patch(SETTINGS, { old_password: 'hamlet-password', new_password: 'easy' }), 'New password is too weak!');
      await expectRefused(await api.as('hamlet').patch(SETTINGS, { old_password: 'bad', new_password: 'a-new-secret', color_scheme: 2 }), 'Wrong password!');
    });
  });

  describe('email', () => {
    // The key of the link mailed to the new address (test/api/email-change.api-spec.ts: the mails themselves).
    it('changes the address only once the link is followed', async () => {
      expect(expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: ' prince@acme.test ' }))).toEqual({ result: 'success', msg: '' });
      const token = await api.emailChangeKey('prince@acme.test');
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).delivery_email).toBe('hamlet@acme.test');

      const page = await api.http.get(`/accounts/confirm_new_email/${token}`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('prince@acme.test');

      const { apiKey } = api.user('hamlet');
      const me = expectSuccess(await api.http.get('/api/v1/users/me').auth('prince@acme.test', apiKey));
      expect(me).toMatchObject({ email: 'prince@acme.test', delivery_email: 'prince@acme.test' });
      expect((await api.http.get('/api/v1/users/me').auth('hamlet@acme.test', apiKey)).status).toBe(401);
      expectSuccess(await api.http.post('/api/v1/fetch_api_key').type('form').send({ username: 'prince@acme.test', password: 'hamlet-password' }));
    });

    it('answers a used, revoked, expired or unknown link with a 404 page', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
      const first = await api.emailChangeKey('prince@acme.test');
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'dane@acme.test' }));
      const second = await api.emailChangeKey('dane@acme.test');
      expect((await api.http.get(`/accounts/confirm_new_email/${first}`)).status).toBe(404);
      expect((await api.http.get('/accounts/confirm_new_email/nosuchtoken')).status).toBe(404);
      api.clock.advance(25 * 60 * 60 * 1000);
      const expired = await api.http.get(`/accounts/confirm_new_email/${second}`);
      expect(expired.status).toBe(404);
      expect(expired.text).toContain('expired');
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).delivery_email).toBe('hamlet@acme.test');
    });

    it('cannot be used twice', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
      const token = await api.emailChangeKey('prince@acme.test');
      expect((await api.http.get(`/accounts/confirm_new_email/${token}`)).status).toBe(200);
      expect((await api.http.get(`/accounts/confirm_new_email/${token}`)).status).toBe(404);
    });

    it('refuses bad or taken addresses, changing nothing', async () => {
      await expectRefused(await api.as('hamlet').patch(SETTINGS, { email: 'not-an-address' }), 'Invalid address.');
      await expectRefused(await api.as('hamlet').patch(SETTINGS, { email: 'Cordelia@acme.test' }), 'Already has an account.');
      await expectRefused(await api.as('hamlet').patch(SETTINGS, { email: 'HAMLET@acme.test' }), 'Already has an account.');
    });

    it('does nothing for the current address', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'hamlet@acme.test' }));
      expect(await api.newEvents()).toEqual([]);
    });

    it('refuses the link when the address was taken meanwhile, and keeps the link', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { email: 'prince@acme.test' }));
      const token = await api.emailChangeKey('prince@acme.test');
      expectSuccess(await api.as('iago').post('/api/v1/users', { email: 'prince@acme.test', password: 'long-enough', full_name: 'Another Prince' }));
      const page = await api.http.get(`/accounts/confirm_new_email/${token}`);
      expect(page.status).toBe(400);
      expect(page.text).toContain('Already has an account.');
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/users/me')).delivery_email).toBe('hamlet@acme.test');
    });
  });

  describe('target_users (administrators)', () => {
    const members = 5; // role:members of the first organization, by the system group id convention.

    it('changes the settings of listed users and of group members, not the administrator\'s own', async () => {
      expectSuccess(await api.as('iago').patch(SETTINGS, { target_users: { user_ids: [id('hamlet')], skip_if_already_edited: false }, color_scheme: 2 }));
      expect((await settingsOf('hamlet')).color_scheme).toBe(2);
      expect((await settingsOf('cordelia')).color_scheme).toBe(1);
      expectSuccess(await api.as('iago').patch(SETTINGS, { target_users: { group_ids: [members], skip_if_already_edited: false }, emojiset: 'twitter' }));
      for (const name of ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia']) expect((await settingsOf(name)).emojiset).toBe('twitter');
      expect((await settingsOf('polonius')).emojiset).toBe('google');
    });

    it('records the administrator as the actor', async () => {
      expectSuccess(await api.as('iago').patch(SETTINGS, { target_users: { user_ids: [id('hamlet')], skip_if_already_edited: false }, color_scheme: 2 }));
      const [event] = await api.newEvents();
      expect(event.data).toMatchObject({ userId: id('hamlet'), actorId: id('iago'), editedBySelf: false });
    });

    it('skips users who changed the setting themselves, with skip_if_already_edited', async () => {
      expectSuccess(await api.as('hamlet').patch(SETTINGS, { color_scheme: 3 }));
      expectSuccess(await api.as('iago').patch(SETTINGS, { target_users: { user_ids: [id('hamlet'), id('cordelia')], skip_if_already_edited: true }, color_scheme: 2 }));
      expect((await settingsOf('hamlet')).color_scheme).toBe(3);
      expect((await settingsOf('cordelia')).color_scheme).toBe(2);
      expectSuccess(await api.as('iago').patch(SETTINGS, { target_users: { user_ids: [id('hamlet')], skip_if_already_edited: false }, color_scheme: 2 }));
      expect((await settingsOf('hamlet')).color_scheme).toBe(2);
    });

    it('is for administrators only', async () => {
      for (const who of ['hamlet', 'shiva', 'polonius']) {
        await expectRefused(
          await api.as(who).patch(SETTINGS, { target_users: { user_ids: [id('cordelia')], skip_if_already_edited: false }, color_scheme: 2 }),
          'Must be an organization administrator',
          { code: 'UNAUTHORIZED_PRINCIPAL' },
        );
      }
      expectSuccess(await api.as('desdemona').patch(SETTINGS, { target_users: { user_ids: [id('cordelia')], skip_if_already_edited: false }, color_scheme: 2 }));
    });

    it('refuses account fields, the time zone and security-sensitive settings', async () => {
      const target = { user_ids: [id('hamlet')], skip_if_already_edited: false };
      for (const params of [{ email: 'x@acme.test' }, { new_password: 'a-new-secret' }, { full_name: 'New Name' }, { timezone: 'UTC' }, { presence_enabled: false }, { send_read_receipts: false }, { email_address_visibility: 2 }]) {
        await expectRefused(await api.as('iago').patch(SETTINGS, { target_users: target, ...params }), 'Cannot change this setting for other users.');
      }
    });

    it('refuses bad targets with Zulip\'s messages', async () => {
      await expectRefused(await api.as('iago').patch(SETTINGS, { target_users: { skip_if_already_edited: true }, color_scheme: 2 }), 'Either user_ids or group_ids must be provided.');
      await expectRefused(await api.as('iago').patch(SETTINGS, { target_users: { user_ids: [id('hamlet'), 999], skip_if_already_edited: true }, color_scheme: 2 }), 'Invalid user ID: 999');
      await expectRefused(await api.as('iago').patch(SETTINGS, { target_users: { group_ids: [999], skip_if_already_edited: true }, color_scheme: 2 }), 'Invalid user group ID: 999');
      await expectRefused(await api.as('iago').patch(SETTINGS, { target_users: { user_ids: [id('hamlet')] }, color_scheme: 2 }), 'target_users["skip_if_already_edited"] field is missing: Field required');
      await expectRefused(await api.as('iago').patch(SETTINGS, { target_users: [id('hamlet')], color_scheme: 2 }), 'target_users is not a dict');
      await expectRefused(await api.as('iago').patch(SETTINGS, { target_users: { user_ids: [id('hamlet')], skip_if_already_edited: false }, notification_sound: 'boing' }), "Invalid notification sound 'boing'");
    });
  });

  describe('concurrency', () => {
    it('never loses an update when one user\'s settings are changed in parallel', async () => {
      const changes: Record<string, unknown>[] = [
        { color_scheme: 2 }, { emojiset: 'text' }, { twenty_four_hour_time: true }, { web_font_size_px: 20 },
        { left_side_userlist: true }, { notification_sound: 'ding' },
      ];
      const responses = await Promise.all(changes.map((params) => api.as('hamlet').patch(SETTINGS, params)));
      for (const response of responses) expectSuccess(response);
      expect(await settingsOf('hamlet')).toMatchObject(Object.assign({}, ...changes));
      expect((await api.newEvents()).filter((e) => e.type === 'UserSettingChanged')).toHaveLength(changes.length);
    });
  });
});
