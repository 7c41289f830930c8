import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** GET /messages and GET /messages/{id} through the whole app (≈ zerver/tests/test_message_fetch.py). */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const MESSAGES = '/api/v1/messages';

describe('reading messages', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, send, createChannel: createAs } = personaHelpers(() => api);
  const createChannel = (who: string, name: string, options: Record<string, unknown> = {}) => createAs(who, name, options, { lookUpAs: 'iago' });
  const subscribe = async (who: string, name: string) => expectSuccess(await api.as(who).post(SUBSCRIPTIONS, { subscriptions: [{ name }] }));
  const toChannel = (who: string, to: string, topic: string, content: string) => send(who, { type: 'stream', to, topic, content, read_by_sender: true });
  const get = async (who: string, params: Record<string, unknown>) => expectSuccess(await api.as(who).get(MESSAGES, params));
  const ids = async (who: string, params: Record<string, unknown>) => (await get(who, params)).messages.map((m: { id: number }) => m.id);
  const newest = (narrow: unknown[] = [], extra: Record<string, unknown> = {}) => ({ anchor: 'newest', num_before: 100, num_after: 0, narrow, ...extra });

  describe('ranges around an anchor', () => {
    let m: number[];
    beforeEach(async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
      m = [];
      for (let i = 0; i < 6; i++) m.push(await toChannel('hamlet', 'Denmark', 'counting', `message ${i}`));
    });

    it('answers the newest messages, oldest first, with Zulip\'s booleans', async () => {
      const body = await get('hamlet', { anchor: 'newest', num_before: 3, num_after: 0 });
      expect(body.messages.map((x: { id: number }) => x.id)).toEqual(m.slice(3));
      expect(body).toMatchObject({ found_anchor: false, found_oldest: false, found_newest: true, history_limited: false, anchor: 10_000_000_000_000_000 });
    });

    it('reads from the oldest, and around a message id', async () => {
      expect(await get('hamlet', { anchor: 'oldest', num_before: 0, num_after: 2 })).toMatchObject({ found_oldest: true, found_newest: false });
      expect(await ids('hamlet', { anchor: 'oldest', num_before: 0, num_after: 2 })).toEqual(m.slice(0, 2));
      const around = await get('hamlet', { anchor: String(m[2]), num_before: 1, num_after: 1 });
      expect(around.messages.map((x: { id: number }) => x.id)).toEqual(m.slice(1, 4));
      expect(around).toMatchObject({ found_anchor: true, found_oldest: false, found_newest: false, anchor: m[2] });
      expect(await ids('hamlet', { anchor: String(m[2]), num_before: 0, num_after: 2, include_anchor: false })).toEqual(m.slice(3, 5));
      expect(await get('hamlet', { anchor: String(m[0]), num_before: 5, num_after: 0 })).toMatchObject({ found_oldest: true, found_anchor: true });
    });

    it('starts at the first unread message', async () => {
      // Cordelia has read nothing: her first unread is the first message; Hamlet has read all.
      expect(await get('cordelia', { anchor: 'first_unread', num_before: 0, num_after: 1 })).toMatchObject({ anchor: m[0], found_anchor: true });
      expect((await get('hamlet', { anchor: 'first_unread', num_before: 2, num_after: 2 })).anchor).toBe(10_000_000_000_000_000);
      expect((await get('cordelia', { use_first_unread_anchor: true, num_before: 0, num_after: 1 })).anchor).toBe(m[0]);
    });

    it('fetches listed message ids', async () => {
      const body = await get('hamlet', { message_ids: [m[4], m[1], 999999] });
      expect(body.messages.map((x: { id: number }) => x.id)).toEqual([m[1], m[4]]);
      expect(body).toMatchObject({ found_anchor: false, found_oldest: false, found_newest: false, history_limited: false });
      expect(body).not.toHaveProperty('anchor');
    });

    it.each([
      [{ num_before: 1, num_after: 1 }, "Missing 'anchor' argument."],
      [{ anchor: 'latest', num_before: 1 }, 'Invalid anchor'],
      [{ anchor: 'newest', num_before: 4000, num_after: 1001 }, 'Too many messages requested (maximum 5000).'],
      [{ anchor: '5', num_before: 1, num_after: 1, include_anchor: false }, 'The anchor can only be excluded at an end of the range'],
      [{ anchor: 'newest', num_before: -1 }, 'num_before is too small'],
    ])('refuses %j with "%s"', async (params, msg) => expectError(await api.as('hamlet').get(MESSAGES, params), msg));

    it('refuses message_ids with an anchor', async () => {
      const body = expectError(await api.as('hamlet').get(MESSAGES, { anchor: 'newest', message_ids: [1] }), 'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor');
      expect(body.parameters).toBe('num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor');
    });

    it('answers raw Markdown with apply_markdown=false', async () => {
      const [message] = (await get('hamlet', { anchor: String(m[0]), num_before: 0, num_after: 0, apply_markdown: false })).messages;
      expect(message).toMatchObject({ id: m[0], content: 'message 0', content_type: 'text/x-markdown' });
    });
  });

  describe('narrows', () => {
    const s: Record<string, number> = {};
    beforeEach(async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia'), id('iago')] });
      await createChannel('cordelia', 'Verona', { principals: [id('hamlet'), id('cordelia')] });
      s.lunch = await toChannel('hamlet', 'Denmark', 'Lunch', 'Pizza at noon? https://pizza.test');
      s.reply = await toChannel('cordelia', 'Denmark', 'lunch', 'Yes @**King Hamlet**');
      s.other = await toChannel('iago', 'Denmark', '✔ solved', 'all done');
      s.verona = await toChannel('cordelia', 'Verona', 'balcony', 'wherefore art thou');
      s.dm = await send('cordelia', { type: 'direct', to: [id('hamlet')], content: 'psst' });
      s.group = await send('iago', { type: 'direct', to: [id('hamlet'), id('cordelia')], content: 'group chat' });
    });

    it.each<[string, unknown[], string[]]>([
      ['channel by name', [{ operator: 'channel', operand: 'Denmark' }], ['lunch', 'reply', 'other']],
      ['stream (legacy), case-insensitive', [['stream', 'denmark']], ['lunch', 'reply', 'other']],
      ['channel and topic, case-insensitive', [{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'LUNCH' }], ['lunch', 'reply']],
      ['sender', [{ operator: 'sender', operand: 'cordelia@acme.test' }], ['reply', 'verona', 'dm']],
      ['a conversation', [{ operator: 'dm', operand: 'cordelia@acme.test' }], ['dm']],
      ['a group conversation by ids', [{ operator: 'dm', operand: 'IDS:iago,cordelia' }], ['group']],
      ['dm-including', [{ operator: 'dm-including', operand: 'iago@acme.test' }], ['group']],
      ['is:dm', [{ operator: 'is', operand: 'dm' }], ['dm', 'group']],
      ['is:unread', [{ operator: 'is', operand: 'unread' }], ['reply', 'other', 'verona', 'dm', 'group']],
      ['is:mentioned', [{ operator: 'is', operand: 'mentioned' }], ['reply']],
      ['is:resolved', [{ operator: 'is', operand: 'resolved' }], ['other']],
      ['has:link', [{ operator: 'has', operand: 'link' }], ['lunch']],
      ['search words', [{ operator: 'search', operand: 'pizza NOON' }], ['lunch']],
      ['negation', [{ operator: 'channel', operand: 'Denmark', negated: true }, { operator: 'sender', operand: 'iago@acme.test', negated: true }], ['verona', 'dm']],
      ['negated topic keeps direct messages', [{ operator: 'topic', operand: 'lunch', negated: true }], ['other', 'verona', 'dm', 'group']],
      ['is:starred (nothing starred)', [{ operator: 'is', operand: 'starred' }], []],
    ])('%s', async (_label, narrow, expected) => {
      const resolved = narrow.map((t) =>
        !Array.isArray(t) && (t as { operand: unknown }).operand === 'IDS:iago,cordelia' ? { ...(t as object), operand: [id('iago'), id('cordelia')] } : t,
      );
      expect(await ids('hamlet', newest(resolved))).toEqual(expected.map((k) => s[k]));
    });

    it('answers a narrow nothing can match (is:followed, no followed topic) from the first unread too, not a 500', async () => {
      for (const anchor of ['newest', 'first_unread', 'oldest']) {
        expect(await get('desdemona', { anchor, num_before: 10, num_after: 10, narrow: [{ operator: 'is', operand: 'followed' }] })).toMatchObject({ messages: [], found_oldest: true, found_newest: true });
      }
    });

    it('finds a message by id', async () => expect(await ids('hamlet', newest([{ operator: 'id', operand: s.dm }]))).toEqual([s.dm]));

    it.each<[unknown[], string, string]>([
      [[{ operator: 'color', operand: 'red' }], 'Invalid narrow operator: unknown operator color', 'unknown operator color'],
      [[{ operator: 'channel', operand: 'Nowhere' }], 'Invalid narrow operator: unknown channel Nowhere', 'unknown channel Nowhere'],
      [[{ operator: 'sender', operand: 'ghost@acme.test' }], 'Invalid narrow operator: unknown user ghost@acme.test', 'unknown user ghost@acme.test'],
      [[{ operator: 'is', operand: 'shiny' }], "Invalid narrow operator: unknown 'is' operand shiny", "unknown 'is' operand shiny"],
      [[{ operator: 'channel', operand: 'Denmark' }, { operator: 'is', operand: 'dm' }], 'Invalid narrow operator: No message can be both a channel message and direct message', 'No message can be both a channel message and direct message'],
    ])('refuses %j with BAD_NARROW', async (narrow, msg, desc) => {
      const body = expectError(await api.as('hamlet').get(MESSAGES, newest(narrow)), msg, { code: 'BAD_NARROW' });
      expect(body.desc).toBe(desc);
    });

    describe('with (topic permalinks, feature level 271)', () => {
      const denmark = async () => expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'Denmark' })).stream_id as number;

      it('reads the conversation the message is in now, even after a move, with an integer or string operand', async () => {
        expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${s.lunch}`, { topic: 'Dinner', propagate_mode: 'change_one', send_notification_to_new_thread: false, send_notification_to_old_thread: false }));
        const stale = [{ operator: 'channel', operand: await denmark() }, { operator: 'topic', operand: 'Lunch' }];
        expect(await ids('hamlet', newest([...stale, { operator: 'with', operand: s.lunch }]))).toEqual([s.lunch]);
        expect(await ids('hamlet', newest([...stale, { operator: 'with', operand: String(s.reply) }]))).toEqual([s.reply]);
        expect(await ids('hamlet', newest([{ operator: 'with', operand: s.group }]))).toEqual([s.group]);
        expect(await ids('hamlet', newest([{ operator: 'with', operand: s.dm }, { operator: 'is', operand: 'unread' }]))).toEqual([s.dm]);
      });

      it('drops with for a message the user cannot read when the rest names a conversation, else refuses it', async () => {
        const conversation = [{ operator: 'channel', operand: await denmark() }, { operator: 'topic', operand: 'lunch' }];
        // Iago is not in the private channel: its message is not his to follow.
        await createChannel('cordelia', 'Secret', { invite_only: true });
        const secret = await toChannel('cordelia', 'Secret', 'plans', 'hush');
        expect(await ids('iago', newest([...conversation, { operator: 'with', operand: secret }]))).toEqual([s.lunch, s.reply]);
        const refused = expectError(await api.as('iago').get(MESSAGES, newest([{ operator: 'with', operand: secret }])), "Invalid narrow operator: Invalid 'with' operator", { code: 'BAD_NARROW' });
        expect(refused.desc).toBe("Invalid 'with' operator");
        expectError(await api.as('hamlet').get(MESSAGES, newest([{ operator: 'with', operand: 'abc' }])), "Invalid narrow operator: Invalid 'with' operator", { code: 'BAD_NARROW' });
        const twice = expectError(
          await api.as('hamlet').get(MESSAGES, newest([{ operator: 'with', operand: s.dm }, { operator: 'with', operand: s.dm }])),
          "Invalid narrow operator combination: Duplicate 'with' operators.",
          { code: 'BAD_NARROW' },
        );
        expect(twice.desc).toBe("Duplicate 'with' operators.");
      });
    });

    it('refuses malformed terms', async () => {
      expectError(await api.as('hamlet').get(MESSAGES, newest([{ operator: 'search', operand: '  ' }])), 'operand cannot be blank.');
      expectError(await api.as('hamlet').get(MESSAGES, { anchor: 'newest', narrow: '{}' }), 'narrow is not a list');
    });
  });

  describe('topics', () => {
    it('lists a channel\'s topics newest first for GET /users/me/{stream_id}/topics', async () => {
      const denmark = await createChannel('hamlet', 'Denmark');
      await toChannel('hamlet', 'Denmark', 'older', 'a');
      const newer = await toChannel('hamlet', 'Denmark', 'Newer', 'b');
      const latest = await toChannel('hamlet', 'Denmark', '(no topic)', 'c');
      const topics = expectSuccess(await api.as('cordelia').get(`/api/v1/users/me/${denmark}/topics`)).topics;
      expect(topics).toEqual([{ name: 'general chat', max_id: latest }, { name: 'Newer', max_id: newer }, { name: 'older', max_id: latest - 2 }]);
      const raw = expectSuccess(await api.as('cordelia').get(`/api/v1/users/me/${denmark}/topics`, { allow_empty_topic_name: true })).topics;
      expect(raw[0]).toEqual({ name: '', max_id: latest });
    });
  });

  describe('in:home', () => {
    it('leaves out muted channels', async () => {
      const muted = await createChannel('hamlet', 'noisy');
      await createChannel('hamlet', 'quiet');
      const loud = await toChannel('hamlet', 'noisy', 't', 'loud');
      const calm = await toChannel('hamlet', 'quiet', 't', 'calm');
      expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: muted, property: 'is_muted', value: true }] }));
      // Hamlet follows the topic he started (automatic policy), and a followed topic of a muted channel stays in home view.
      expect(await ids('hamlet', newest([{ operator: 'in', operand: 'home' }]))).toEqual([loud, calm]);
      expectSuccess(await api.as('hamlet').post('/api/v1/user_topics', { stream_id: muted, topic: 't', visibility_policy: 0 }));
      expect(await ids('hamlet', newest([{ operator: 'in', operand: 'home' }]))).toEqual([calm]);
      expect(await ids('hamlet', newest([{ operator: 'in', operand: 'all' }]))).toEqual([loud, calm]);
    });
  });

  describe('access to history', () => {
    it('shows a public channel\'s earlier messages to a new subscriber, as read and historical', async () => {
      await createChannel('hamlet', 'Denmark');
      const before = await toChannel('hamlet', 'Denmark', 't', 'before cordelia');
      const [message] = (await get('cordelia', newest([{ operator: 'channel', operand: 'Denmark' }]))).messages;
      expect(message).toMatchObject({ id: before, flags: ['read', 'historical'] });
      expect(await ids('cordelia', newest())).toEqual([]); // not in her own messages
    });

    it('keeps a protected private channel\'s earlier messages from new subscribers', async () => {
      await createChannel('hamlet', 'secret', { invite_only: true });
      const before = await toChannel('hamlet', 'secret', 't', 'before cordelia');
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'secret' }], principals: [id('cordelia')] }));
      const after = await toChannel('hamlet', 'secret', 't', 'after cordelia');
      expect(await ids('cordelia', newest([{ operator: 'channel', operand: 'secret' }]))).toEqual([after]);
      expectError(await api.as('cordelia').get(`${MESSAGES}/${before}`), 'Invalid message(s)');
      expectSuccess(await api.as('cordelia').get(`${MESSAGES}/${after}`));
    });

    it('shows a shared-history private channel\'s messages to subscribers only', async () => {
      await createChannel('hamlet', 'shared', { invite_only: true, history_public_to_subscribers: true });
      const before = await toChannel('hamlet', 'shared', 't', 'old');
      expectError(await api.as('cordelia').get(`${MESSAGES}/${before}`), 'Invalid message(s)');
      expect(await ids('cordelia', newest([{ operator: 'channel', operand: 'shared' }]))).toEqual([]);
      await subscribe('cordelia', 'shared').catch(() => undefined);
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'shared' }], principals: [id('cordelia')] }));
      expect(await ids('cordelia', newest([{ operator: 'channel', operand: 'shared' }]))).toEqual([before]);
    });

    it('lets guests read only the channels they are in', async () => {
      await createChannel('hamlet', 'Denmark');
      const message = await toChannel('hamlet', 'Denmark', 't', 'members only');
      expectError(await api.as('polonius').get(`${MESSAGES}/${message}`), 'Invalid message(s)');
      expect(await ids('polonius', newest([{ operator: 'channel', operand: 'Denmark' }]))).toEqual([]);
    });

    it('answers "Invalid message(s)" for unknown ids and 404 for non-numeric ones', async () => {
      expectError(await api.as('hamlet').get(`${MESSAGES}/424242`), 'Invalid message(s)');
      expect((await api.as('hamlet').get(`${MESSAGES}/abc`)).status).toBe(404);
    });
  });
});
