import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand, DeactivateUserCommand, UserSettingsQueries, UserStatusQueries } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** POST /users/me/status, POST and GET /users/{user_id}/status (≈ zerver/tests/test_user_status.py). */
const MY_STATUS = '/api/v1/users/me/status';

describe('user status', () => {
  let api: ApiTestClient;
  beforeEach(async () => api = await ApiTestClient.start());
  afterEach(() => api.close());

  const { id, refused: expectRefused } = personaHelpers(() => api);
  const statusOf = async (name: string) => expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id(name)}/status`)).status;

  describe('POST /users/me/status', () => {
    it('sets the text, stripped, and the emoji, which GET /users/{id}/status shows', async () => {
      const body = expectSuccess(await api.as('hamlet').post(MY_STATUS, { status_text: '  on vacation  ', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }));
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await statusOf('hamlet')).toEqual({ status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
      const events = await api.newEvents();
      expect(events.map((e) => [e.streamId, e.type])).toEqual([[`user_status-${id('hamlet')}`, 'UserStatusChanged']]);
    });

    it('looks up an emoji named alone, Zulip\'s extra emoji included', async () => {
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { emoji_name: 'octopus' }));
      expect(await statusOf('hamlet')).toEqual({ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' });
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
      expect(await statusOf('hamlet')).toEqual({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    });

    it('keeps what an update does not name, and clears the text or the emoji with empty values', async () => {
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { status_text: 'Busy', emoji_name: 'car' }));
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { status_text: 'Still busy' }));
      expect(await statusOf('hamlet')).toMatchObject({ status_text: 'Still busy', emoji_name: 'car' });
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { emoji_name: '' }));
      expect(await statusOf('hamlet')).toEqual({ status_text: 'Still busy' });
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { status_text: '' }));
      expect(await statusOf('hamlet')).toEqual({});
    });

    it('turns presence off with the deprecated away, shown as away', async () => {
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { away: true }));
      expect(await statusOf('hamlet')).toEqual({ away: true });
      expect((await api.app.get(UserSettingsQueries).settingsOf(id('hamlet'))).presence_enabled).toBe(false);
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { away: false, status_text: 'Back' }));
      expect(await statusOf('hamlet')).toEqual({ status_text: 'Back' });
    });

    it('allows 60 code points after stripping', async () => {
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { status_text: ` ${'🐙'.repeat(60)} ` }));
      expect((await statusOf('hamlet')).status_text).toBe('🐙'.repeat(60));
    });

    it('accepts the query string and multipart shapes', async () => {
      const { email, apiKey } = api.user('hamlet');
      expectSuccess(await api.http.post(MY_STATUS).query({ status_text: 'From the query' }).auth(email, apiKey));
      expect((await statusOf('hamlet')).status_text).toBe('From the query');
      expectSuccess(await api.as('hamlet').postMultipart(MY_STATUS, { status_text: 'From a form' }));
      expect((await statusOf('hamlet')).status_text).toBe('From a form');
    });

    it('refuses bad requests with Zulip\'s messages, changing nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, 'Client did not pass any new values.'],
        [{ emoji_code: '1f697' }, 'Client did not pass any new values.'],
        [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
        [{ status_text: 'Busy', emoji_code: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
        [{ status_text: 'Busy', reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
        [{ emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
        [{ emoji_name: 'car', emoji_code: 'ffff', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
        [{ emoji_name: 'octopus', emoji_code: '1f697', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
        [{ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'emoji' }, 'Invalid emoji type.'],
        [{ emoji_name: 'parrot', emoji_code: '99', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
        [{ emoji_name: 'car', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' }, 'Invalid emoji name.'],
        [{ away: true, emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
        [{ away: 'yes' }, 'away is not valid JSON'],
      ];
      for (const [params, msg] of cases) await expectRefused(await api.as('hamlet').post(MY_STATUS, params), msg);
      expect((await api.app.get(UserSettingsQueries).settingsOf(id('hamlet'))).presence_enabled).toBe(true);
    });

    it('refuses bots', async () => {
      const bot = await api.app.get(CommandBus).execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Status Bot', shortName: 'status', ownerId: id('hamlet') }));
      await api.markEvents();
      await expectRefused(await api.http.post(MY_STATUS).auth(bot.email, bot.apiKey).type('form').send({ status_text: 'beep' }), 'This endpoint does not accept bot requests.');
    });
  });

  describe('custom emoji', () => {
    it('takes an active custom emoji of the organization, by name or by id, and refuses a deactivated one', async () => {
      const emoji = (type: string, extra: object = {}) => ({
        type, data: { realmId: api.realmId, emojiId: 7, name: 'party_parrot', actorId: id('iago'), authorId: id('iago'), fileName: 'abc.png', contentType: 'image/png', at: '2026-01-01T00:00:00.000Z', ...extra },
      });
      await api.givenEvents(`realm_emoji-${api.realmId}`, [emoji('RealmEmojiAdded')]);
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { emoji_name: 'party_parrot' }));
      expect(await statusOf('hamlet')).toEqual({ emoji_name: 'party_parrot', emoji_code: '7', reaction_type: 'realm_emoji' });
      await api.markEvents();
      await expectRefused(await api.as('hamlet').post(MY_STATUS, { emoji_name: 'parrot', emoji_code: '7', reaction_type: 'realm_emoji' }), 'Invalid custom emoji name.');
      await api.givenEvents(`realm_emoji-${api.realmId}`, [emoji('RealmEmojiRemoved')]);
      await expectRefused(await api.as('hamlet').post(MY_STATUS, { emoji_name: 'party_parrot', emoji_code: '7', reaction_type: 'realm_emoji' }), 'This custom emoji has been deactivated.');
    });
  });

  describe('POST /users/{user_id}/status (administrators)', () => {
    const statusPath = (name: string) => `/api/v1/users/${id(name)}/status`;

    it('lets administrators set and clear another user\'s status', async () => {
      expectSuccess(await api.as('iago').post(statusPath('hamlet'), { status_text: 'In a meeting', emoji_name: 'calendar' }));
      expect(await statusOf('hamlet')).toEqual({ status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji' });
      const [event] = await api.newEvents();
      expect(event.data).toMatchObject({ userId: id('hamlet'), actorId: id('iago') });
      expectSuccess(await api.as('desdemona').post(statusPath('hamlet'), { status_text: '', emoji_name: '' }));
      expect(await statusOf('hamlet')).toEqual({});
    });

    it('does not take away, which it reports as unsupported', async () => {
      const body = expectSuccess(await api.as('iago').post(statusPath('hamlet'), { status_text: 'Out', away: true }));
      expect(body.ignored_parameters_unsupported).toEqual(['away']);
      expect(await statusOf('hamlet')).toEqual({ status_text: 'Out' });
    });

    it('refuses others with "Insufficient permission"', async () => {
      for (const who of ['hamlet', 'shiva', 'polonius']) {
        await expectRefused(await api.as(who).post(statusPath('cordelia'), { status_text: 'Hacked' }), 'Insufficient permission', { code: 'BAD_REQUEST' });
      }
    });

    it('refuses unknown users, bots and deactivated users', async () => {
      await expectRefused(await api.as('iago').post('/api/v1/users/9999/status', { status_text: 'x' }), 'No such user');
      const bus = api.app.get(CommandBus);
      const bot = await bus.execute(new CreateBotCommand({ actor: operatorActor(api.realmId) }, { fullName: 'Status Bot', shortName: 'status', ownerId: id('hamlet') }));
      await bus.execute(new DeactivateUserCommand({ actor: operatorActor(api.realmId) }, id('cordelia')));
      await api.markEvents();
      await expectRefused(await api.as('iago').post(`/api/v1/users/${bot.userId}/status`, { status_text: 'x' }), 'No such user');
      await expectRefused(await api.as('iago').post(statusPath('cordelia'), { status_text: 'x' }), 'User is deactivated');
    });

    it('checks the values as for oneself', async () => {
      await expectRefused(await api.as('iago').post(statusPath('hamlet'), {}), 'Client did not pass any new values.');
      await expectRefused(await api.as('iago').post(statusPath('hamlet'), { status_text: 'y'.repeat(61) }), 'status_text is too long (limit: 60 characters)');
      await expectRefused(await api.as('iago').post(statusPath('hamlet'), { emoji_name: 'nope' }), "Emoji 'nope' does not exist");
    });
  });

  describe('GET /users/{user_id}/status and /register\'s user_status', () => {
    it('answers No such user for bots and unknown ids', async () => {
      expectError(await api.as('hamlet').get('/api/v1/users/9999/status'), 'No such user');
    });

    it('lists the statuses of active users who have one, or are away', async () => {
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { status_text: 'Reading' }));
      expectSuccess(await api.as('cordelia').post(MY_STATUS, { away: true }));
      expectSuccess(await api.as('shiva').post(MY_STATUS, { status_text: 'Gone' }));
      expectSuccess(await api.as('iago').post(MY_STATUS, { status_text: '' }));
      await api.app.get(CommandBus).execute(new DeactivateUserCommand({ actor: operatorActor(api.realmId) }, id('shiva')));
      expect(await api.app.get(UserStatusQueries).statusesForRegister(api.realmId)).toEqual({
        [String(id('hamlet'))]: { status_text: 'Reading' },
        [String(id('cordelia'))]: { away: true },
      });
    });
  });
  describe('reaction_type of Zulip\'s extra emoji', () => {
    const reactionTypesSent = async () => {
      const queueId = expectSuccess(await api.as('cordelia').post('/api/v1/register', { event_types: ['user_status'] })).queue_id as string;
      expectSuccess(await api.as('hamlet').post(MY_STATUS, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
      const events = expectSuccess(await api.as('cordelia').get('/api/v1/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).events;
      const register = expectSuccess(await api.as('cordelia').post('/api/v1/register', { fetch_event_types: ['user_status'] }));
      return {
        event: events.map((e: { reaction_type: string }) => e.reaction_type),
        get: (await statusOf('hamlet')).reaction_type,
        register: register.user_status[String(id('hamlet'))].reaction_type,
      };
    };

    it('is stored as the spec\'s svc_extra_emoji and sent as zulip_extra_emoji under ZULIP_ALIASES, in events and /register too', async () => {
      await api.markEvents();
      expect(await reactionTypesSent()).toEqual({ event: ['zulip_extra_emoji'], get: 'zulip_extra_emoji', register: 'zulip_extra_emoji' });
      expect((await api.newEvents()).map((e) => e.data.reactionType)).toEqual(['svc_extra_emoji']);
    });

    it('is sent as svc_extra_emoji when ZULIP_ALIASES is off', async () => {
      await api.close();
      api = await ApiTestClient.start({ config: { zulipAliases: false } });
      expect(await reactionTypesSent()).toEqual({ event: ['svc_extra_emoji'], get: 'svc_extra_emoji', register: 'svc_extra_emoji' });
    });
  });
});
