import { CommandBus } from '@nestjs/cqrs';
import { AuditHistory, CreateRealmCommand, HIDDEN, HISTORY_RULES, type RecordedEvent, RegenerateApiKeyCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { buildProgram } from '../../apps/cli/src/commands';
import { coverageWorkload, declaredEventTypes } from '../replay/workload';
import { personaHelpers, readWholeLog } from '@app/testing';

/**
 * The audit history under the access rules (docs/security.md): GET /svc/history and the CLI show
 * an administrator, owners included, only what Zulip lets them read, never a secret; every event
 * is still listed, its unreadable values "[hidden]".
 */
jest.setTimeout(180_000);

type Entry = { type: string; stream: string; actor_id: number | null; data: Record<string, unknown>; changes: { field: string; old: unknown; new: unknown }[]; hidden: string[] };

/**
 * Every secret the log holds, as recorded (API keys, password hashes, tokens, push keys, the digests
 * of confirmation keys), and the confirmation keys mailed so far, which the log must not hold at all.
 */
async function secretsIn(events: RecordedEvent[], api: ApiTestClient): Promise<string[]> {
  const found = new Set<string>([...api.credentials.values()].map((c) => c.apiKey));
  for (const to of new Set(events.filter((e) => e.type === 'EmailChangeRequested').map((e) => (e.data as { newEmail: string }).newEmail))) {
    found.add(await api.emailChangeKey(to));
  }
  const visit = (value: unknown, key = '') => {
    if (typeof value === 'string') {
      if (/^(apiKey|passwordHash|token|revokedTokens|keyDigest|revokedKeyDigests|pushKey|encryptedPushRegistration)$/.test(key) && value.length >= 6) found.add(value);
    } else if (Array.isArray(value)) value.forEach((v) => visit(v, key));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  for (const event of events) visit(event.data);
  return [...found];
}

const leaked = (body: unknown, needles: string[]) => {
  const json = JSON.stringify(body);
  return needles.filter((n) => json.includes(n));
};

const ADMINS = ['desdemona', 'iago'] as const;
const NOT_ADMINS = ['shiva', 'hamlet', 'polonius', 'bot'] as const;

describe('audit history under the access rules', () => {
  it('has a decision for every event type the domain declares, and none for types that do not exist', () => {
    const declared = declaredEventTypes();
    expect(declared.length).toBeGreaterThan(60);
    expect(declared.filter((type) => !(type in HISTORY_RULES))).toEqual([]);
    expect(Object.keys(HISTORY_RULES).filter((type) => !declared.includes(type))).toEqual([]);
  });

  describe('a scenario of private data, read per history form and per role', () => {
    let api: ApiTestClient;
    const ids: Record<string, number> = {};
    let secrets: string[];
    let cabal: number;
    const { id } = personaHelpers(() => api);

    beforeAll(async () => {
      api = await ApiTestClient.start();
      const post = async (who: string, path: string, body: Record<string, unknown> = {}) => expectSuccess(await api.as(who).post(path, body));
      const dm = async (from: string, to: string, content: string) => (await post(from, '/api/v1/messages', { type: 'direct', to: JSON.stringify([id(to)]), content })).id as number;
      const toChannel = async (from: string, channel: string, content: string) => (await post(from, '/api/v1/messages', { type: 'stream', to: channel, topic: 'plans', content })).id as number;

      await post('hamlet', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [id('hamlet'), id('cordelia'), id('iago')] });
      // A private channel with protected history: iago joins after the first message.
      await post('hamlet', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'cabal' }], invite_only: true, history_public_to_subscribers: false, principals: [id('hamlet'), id('cordelia')] });
      cabal = await api.channelId('cabal');
      ids.cabalBefore = await toChannel('hamlet', 'cabal', 'cabal-before-text');
      await post('hamlet', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'cabal' }], principals: [id('iago')] });
      ids.cabalAfter = await toChannel('hamlet', 'cabal', 'cabal-after-text');

      ids.dmOthers = await dm('hamlet', 'cordelia', 'dm-others-text');
      expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${ids.dmOthers}`, { content: 'dm-others-edited' }));
      ids.dmIago = await dm('hamlet', 'iago', 'dm-iago-text');
      ids.public = await toChannel('hamlet', 'Denmark', 'public-original');
      expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${ids.public}`, { content: 'public-edited' }));
      ids.deleted = await toChannel('hamlet', 'Denmark', 'deleted-public-text');
      expectSuccess(await api.as('cordelia').post(`/api/v1/messages/${ids.deleted}/reactions`, { emoji_name: 'octopus' }));
      expectSuccess(await api.as('hamlet').delete(`/api/v1/messages/${ids.deleted}`));

      // Hamlet's own data.
      await post('hamlet', '/api/v1/drafts', { drafts: [{ type: 'stream', to: [await api.channelId('Denmark')], topic: 'd', content: 'hamlet-draft-text', timestamp: 1 }] });
      await post('iago', '/api/v1/drafts', { drafts: [{ type: 'stream', to: [await api.channelId('Denmark')], topic: 'd', content: 'iago-draft-text', timestamp: 1 }] });
      await post('hamlet', '/api/v1/saved_snippets', { title: 'snippet-title', content: 'snippet-text' });
      await post('hamlet', '/api/v1/users/me/alert_words', { alert_words: ['xyzzyalert'] });
      await post('hamlet', `/api/v1/users/me/muted_users/${id('cordelia')}`);
      await post('hamlet', '/api/v1/messages/flags', { messages: JSON.stringify([ids.dmOthers]), op: 'add', flag: 'starred' });
      ids.scheduled = (await post('hamlet', '/api/v1/scheduled_messages', {
        type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'scheduled-dm-text', scheduled_delivery_timestamp: Math.floor(api.clock.now().getTime() / 1000) + 3600,
      })).scheduled_message_id as number;
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { color_scheme: 3 }));
      await post('hamlet', '/api/v1/users/me/android_gcm_reg_id', { token: 'android-push-token-of-hamlet' });
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { email: 'hamlet-new@acme.test' }));
      const { apiKey } = await api.app.get(CommandBus).execute(new RegenerateApiKeyCommand({ actor: operatorActor(api.realmId) }, id('hamlet')));
      api.credentials.set('hamlet', { ...api.user('hamlet'), apiKey });
      expectSuccess(await api.as('cordelia').patch('/api/v1/settings', { old_password: 'cordelia-password', new_password: 'a-new-long-password' }));
      const bot = expectSuccess(await api.as('hamlet').postMultipart('/api/v1/bots', { full_name: 'Deploy Bot', short_name: 'deploy' }));
      const botEmail = expectSuccess(await api.as('hamlet').get(`/api/v1/users/${bot.user_id}`)).user.email as string;
      api.credentials.set('bot', { userId: bot.user_id as number, email: botEmail, apiKey: bot.api_key as string });
      expectSuccess(await api.as('bot').put('/api/v1/bot_storage', { storage: { plan: 'bot-storage-value' } }));

      await post('hamlet', '/api/v1/user_topics', { stream_id: await api.channelId('Denmark'), topic: 'muted-topic-name', visibility_policy: 1 });
      expectSuccess(await api.as('iago').patch('/api/v1/realm', { name: 'Acme Worldwide' }));
      secrets = await secretsIn(await readWholeLog(api.eventStore), api);
    });
    afterAll(() => api.close());

    /** What no administrator may read, and what only iago may (his DM, his draft, the channel message after he joined). */
    const NOBODY = ['dm-others-text', 'dm-others-edited', 'cabal-before-text', 'deleted-public-text', 'hamlet-draft-text', 'snippet-text', 'snippet-title', 'xyzzyalert', 'scheduled-dm-text', 'bot-storage-value', 'hamlet-new@acme.test', 'muted-topic-name'];
    const ONLY_IAGO = ['dm-iago-text', 'cabal-after-text', 'iago-draft-text'];

    const forms = (): Record<string, Record<string, unknown>> => ({
      realm: { realm: true },
      user: { user_id: id('hamlet') },
      'user (bot)': { user_id: id('bot') },
      channel: { channel_id: cabal },
      'message (DM of others)': { message_id: ids.dmOthers },
      'message (DM to iago)': { message_id: ids.dmIago },
      'message (protected history, before)': { message_id: ids.cabalBefore },
      'message (protected history, after)': { message_id: ids.cabalAfter },
      'message (deleted)': { message_id: ids.deleted },
      'message (public)': { message_id: ids.public },
      ...Object.fromEntries(
        [
          `users-${api.realmId}`, `channels-${api.realmId}`, `realm-${api.realmId}`, `subscriptions-${cabal}`,
          `message-${ids.dmOthers}`, `message-${ids.cabalBefore}`, `message-${ids.deleted}`, `message_reactions-${ids.deleted}`,
          `scheduled_message-${ids.scheduled}`, `message_flags-${id('hamlet')}`, `alert_words-${id('hamlet')}`, `drafts-${id('hamlet')}`, `drafts-${id('iago')}`,
          `saved_snippets-${id('hamlet')}`, `muted_users-${id('hamlet')}`, `user_settings-${id('hamlet')}`, `push_devices-${id('hamlet')}`,
          `user_topics-${id('hamlet')}`, `bot_storage-${id('bot')}`,
        ].map((stream) => [`stream ${stream}`, { stream }]),
      ),
    });

    it.each(ADMINS)('as %s (an administrator): every form answers, every event listed, nothing private or secret in it', async (who) => {
      for (const [form, params] of Object.entries(forms())) {
        const body = expectSuccess(await api.as(who).get('/api/v1/svc/history', params));
        const history = body.history as Entry[];
        expect({ form, events: history.length > 0 }).toEqual({ form, events: true });
        expect({ form, who, secrets: leaked(body, secrets) }).toEqual({ form, who, secrets: [] });
        const forbidden = who === 'iago' ? NOBODY : [...NOBODY, ...ONLY_IAGO];
        expect({ form, who, private: leaked(body, forbidden) }).toEqual({ form, who, private: [] });
      }
    });

    it.each(NOT_ADMINS)('as %s (not an administrator): refused, for every form', async (who) => {
      for (const params of Object.values(forms())) {
        const response = await api.as(who).get('/api/v1/svc/history', params);
        expectError(response, 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL', status: 400 });
        expect(leaked(response.body, [...secrets, ...NOBODY, ...ONLY_IAGO])).toEqual([]);
      }
    });

    const history = async (who: string, params: Record<string, unknown>) => expectSuccess(await api.as(who).get('/api/v1/svc/history', params)).history as Entry[];

    it('lists what it hides: who, when and what kind stay; the values are [hidden]', async () => {
      const dm = await history('desdemona', { message_id: ids.dmOthers });
      expect(dm.map((e) => e.type)).toEqual(['MessageSent', 'MessageContentEdited']);
      expect(dm[0]).toMatchObject({ actor_id: id('hamlet'), data: { messageId: ids.dmOthers, senderId: id('hamlet'), content: HIDDEN, recipient: HIDDEN } });
      expect(dm[1].changes).toContainEqual({ field: 'content', old: HIDDEN, new: HIDDEN });

      const users = await history('iago', { stream: `users-${api.realmId}` });
      const created = users.filter((e) => e.type === 'UserCreated');
      expect(created.length).toBeGreaterThan(5);
      // The events hold no key or hash at all (the credential store does); the entries' names are hidden too.
      expect(created.every((e) => e.data.apiKeyId === HIDDEN && e.data.passwordId === HIDDEN && !('apiKey' in e.data) && !('passwordHash' in e.data) && typeof e.data.email === 'string')).toBe(true);
      expect(users.find((e) => e.type === 'UserApiKeyRegenerated')).toMatchObject({ data: { userId: id('hamlet'), apiKeyId: HIDDEN }, hidden: ['apiKeyId'] });
      expect(users.find((e) => e.type === 'UserPasswordChanged')).toMatchObject({ data: { userId: id('cordelia'), passwordId: HIDDEN } });

      const settings = await history('iago', { user_id: id('hamlet') });
      expect(settings.find((e) => e.type === 'UserSettingChanged' && e.data.property === 'color_scheme')).toMatchObject({ changes: [{ field: 'color_scheme', old: HIDDEN, new: HIDDEN }] });
      expect(settings.find((e) => e.type === 'EmailChangeRequested')).toMatchObject({ data: { userId: id('hamlet'), keyDigest: HIDDEN, newEmail: HIDDEN } });

      const drafts = await history('desdemona', { stream: `drafts-${id('hamlet')}` });
      expect(drafts).toEqual([expect.objectContaining({ type: 'DraftsCreated', data: expect.objectContaining({ userId: id('hamlet'), drafts: HIDDEN }) })]);
      expect((await history('iago', { stream: `scheduled_message-${ids.scheduled}` }))[0].data).toMatchObject({ senderId: id('hamlet'), content: HIDDEN, recipient: HIDDEN });
      expect((await history('iago', { stream: `alert_words-${id('hamlet')}` }))[0].data).toMatchObject({ words: HIDDEN });
      expect((await history('iago', { stream: `bot_storage-${id('bot')}` }))[0].data).toMatchObject({ botId: id('bot'), entries: HIDDEN });
      expect((await history('iago', { stream: `push_devices-${id('hamlet')}` }))[0].data).toMatchObject({ tokenEntryId: HIDDEN, tokenDigest: HIDDEN });
    });

    it('shows an administrator what they may read: their own data, their DMs, public messages with their edit history', async () => {
      const own = await history('iago', { stream: `drafts-${id('iago')}` });
      expect(JSON.stringify(own)).toContain('iago-draft-text');
      expect((await history('iago', { message_id: ids.dmIago }))[0].data.content).toBe('dm-iago-text');
      expect((await history('iago', { message_id: ids.cabalAfter }))[0].data.content).toBe('cabal-after-text');
      // Protected history: GET /messages/{id} refuses iago the message sent before he joined, and so does the history.
      expectError(await api.as('iago').get(`/api/v1/messages/${ids.cabalBefore}`), 'Invalid message(s)');
      expect((await history('iago', { message_id: ids.cabalBefore }))[0].data.content).toBe(HIDDEN);
      const edited = await history('desdemona', { message_id: ids.public });
      expect(edited.find((e) => e.type === 'MessageContentEdited')?.changes).toContainEqual({ field: 'content', old: 'public-original', new: 'public-edited' });
      // Channel settings and members are the organization's: shown.
      const channel = await history('desdemona', { channel_id: cabal });
      expect(channel.find((e) => e.type === 'ChannelCreated')?.data).toMatchObject({ name: 'cabal' });
    });

    it('never shows a deleted message\'s text, to anyone, its sender included', async () => {
      for (const who of ADMINS) {
        const deleted = await history(who, { message_id: ids.deleted });
        expect(deleted.map((e) => e.type)).toEqual(['MessageSent', 'MessageDeleted']);
        expect(deleted[0].data.content).toBe(HIDDEN);
        expect(deleted[1].data).toMatchObject({ messageId: ids.deleted, topic: HIDDEN });
        expect((await history(who, { stream: `message_reactions-${ids.deleted}` }))[0].data).toMatchObject({ userId: id('cordelia'), emojiName: HIDDEN });
      }
    });

    it("refuses another organization's administrator every stream of this one (one organization per server over HTTP: checked on the service)", async () => {
      const { realmId: other } = await api.app.get(CommandBus).execute(new CreateRealmCommand('other', 'Other'));
      const stranger = { realmId: other, userId: 999, role: 'administrator' as const, isBot: false };
      for (const stream of [`users-${api.realmId}`, `message-${ids.dmIago}`, `drafts-${id('hamlet')}`, `bot_storage-${id('bot')}`, `muted_users-${id('hamlet')}`]) {
        await expect(api.app.get(AuditHistory).read(stranger, { kind: 'stream', stream })).rejects.toThrow('Invalid stream');
      }
    });

    it('a change of role counts from the next request, for every form: a demoted administrator is refused, a promoted moderator reads as an administrator', async () => {
      const setRole = async (who: string, role: number) => expectSuccess(await api.as('desdemona').patch(`/api/v1/users/${id(who)}`, { role }));
      try {
        await setRole('iago', 400);
        await setRole('shiva', 200);
        for (const [form, params] of Object.entries(forms())) {
          const refused = await api.as('iago').get('/api/v1/svc/history', params);
          expectError(refused, 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL', status: 400 });
          const body = expectSuccess(await api.as('shiva').get('/api/v1/svc/history', params));
          expect({ form, events: (body.history as Entry[]).length > 0 }).toEqual({ form, events: true });
          // Shiva is in none of the private conversations: what nobody else may read, and what only iago may.
          expect({ form, secrets: leaked(body, secrets), private: leaked(body, [...NOBODY, ...ONLY_IAGO]) }).toEqual({ form, secrets: [], private: [] });
        }
      } finally {
        await setRole('shiva', 300);
        await setRole('iago', 200);
      }
      expectSuccess(await api.as('iago').get('/api/v1/svc/history', { realm: true }));
      expectError(await api.as('shiva').get('/api/v1/svc/history', { realm: true }), 'Must be an organization administrator');
    });

    it('the CLI (the operator, with the data directory) shows every value but secrets and deleted texts', async () => {
      const cli = async (...argv: string[]) => {
        const out: string[] = [];
        await buildProgram((fn) => fn(api.app), { out: (l) => out.push(l), err: () => undefined }).parseAsync(['node', 'cli', 'history', ...argv]);
        return out.join('\n');
      };
      const streams = Object.values(forms()).flatMap((p) => (typeof p.stream === 'string' ? [p.stream] : []));
      for (const stream of streams) {
        for (const output of [await cli('--stream', stream, '--json'), await cli('--stream', stream)]) {
          expect({ stream, secrets: leaked(output, secrets) }).toEqual({ stream, secrets: [] });
          expect({ stream, deleted: leaked(output, ['deleted-public-text']) }).toEqual({ stream, deleted: [] });
        }
      }
      expect(await cli('--message', String(ids.dmOthers), '--json')).toContain('dm-others-edited');
      expect(await cli('--stream', `drafts-${id('hamlet')}`, '--json')).toContain('hamlet-draft-text');
      expect(await cli('--stream', `bot_storage-${id('bot')}`, '--json')).toContain('bot-storage-value');
      const users = JSON.parse(await cli('--user', 'cordelia@acme.test', '--realm', 'acme', '--json')) as Entry[];
      expect(users.find((e) => e.type === 'UserPasswordChanged')?.data.passwordId).toBe(HIDDEN);
      expect(JSON.parse(await cli('--message', String(ids.deleted), '--json'))[0].data.content).toBe(HIDDEN);
    });
  });

  it('after a workload of every event type: no secret in any stream\'s history, for owners, administrators or the CLI; every event listed', async () => {
    const api = await ApiTestClient.start({ config: { pushNotificationsBouncerUrl: 'https://push.example.com' } });
    try {
      await coverageWorkload(api);
      const events = await readWholeLog(api.eventStore);
      const secrets = await secretsIn(events, api);
      expect(secrets.length).toBeGreaterThan(10);
      const streams = [...new Set(events.map((e) => e.streamId))];
      const cliOut: string[] = [];
      const cli = buildProgram((fn) => fn(api.app), { out: (l) => cliOut.push(l), err: () => undefined });
      for (const stream of streams) {
        const expected = events.filter((e) => e.streamId === stream).map((e) => e.type);
        for (const who of ADMINS) {
          const response = await api.as(who).get('/api/v1/svc/history', { stream });
          expect({ stream, who, secrets: leaked(response.body, secrets) }).toEqual({ stream, who, secrets: [] });
          expect({ stream, who, listed: (expectSuccess(response).history as Entry[]).map((e) => e.type) }).toEqual({ stream, who, listed: expected });
        }
        await cli.parseAsync(['node', 'cli', 'history', '--stream', stream, '--json']);
      }
      expect(leaked(cliOut.join('\n'), secrets)).toEqual([]);
      // The deleted message of the workload ("delete me") is hidden from the operator too.
      expect(cliOut.join('\n')).not.toContain('delete me');
    } finally {
      await api.close();
    }
  });
});
