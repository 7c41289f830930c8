import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** POST /messages through the whole app (≈ zerver/tests/test_message_send.py). */
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';
const MESSAGES = '/api/v1/messages';

describe('POST /messages', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, queue, events, createChannel: createAs } = personaHelpers(() => api);
  const email = (name: string) => api.user(name).email;
  const createChannel = (who: string, name: string, options: Record<string, unknown> = {}) => createAs(who, name, options, { lookUpAs: 'iago' });
  const send = (who: string, params: Record<string, unknown>) => api.as(who).post(MESSAGES, params);
  const fetch = async (who: string, id: number) => expectSuccess(await api.as(who).get(`${MESSAGES}/${id}`));
  /** The error, and that nothing was appended for it. */
  const refused = async (response: Parameters<typeof expectError>[0], msg: string, options: { code?: string; status?: number } = {}) => {
    await api.markEvents();
    const body = expectError(response, msg, options);
    expect(await api.newEvents()).toEqual([]);
    return body;
  };

  describe('to a channel', () => {
    let denmark: number;
    beforeEach(async () => {
      denmark = await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
      await api.markEvents();
    });

    it('sends, answers the new id and stores the message for everyone subscribed', async () => {
      const body = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'greetings', content: 'Hello **world**' }));
      expect(typeof body.id).toBe('number');
      const { message, raw_content } = await fetch('cordelia', body.id);
      expect(raw_content).toBe('Hello **world**');
      expect(message).toMatchObject({
        id: body.id, sender_id: id('hamlet'), sender_full_name: 'King Hamlet', sender_email: email('hamlet'), type: 'stream',
        stream_id: denmark, display_recipient: 'Denmark', subject: 'greetings', content: '<p>Hello <strong>world</strong></p>',
        content_type: 'text/html', reactions: [], submessages: [], topic_links: [], is_me_message: false, flags: [],
      });
      expect(message).not.toHaveProperty('last_edit_timestamp');
    });

    it('links bare domains and e-mail addresses as Zulip does, and such a message has a link (has:link)', async () => {
      const linked = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'links', content: 'see zulip.com, or write to a@b.com' }));
      const plain = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'links', content: 'see readme.md and `zulip.com`' }));
      const attrs = 'target="_blank" rel="noopener noreferrer"';
      expect((await fetch('cordelia', linked.id)).message.content).toBe(
        `<p>see <a href="http://zulip.com" ${attrs}>zulip.com</a>, or write to <a href="mailto:a@b.com" ${attrs}>a@b.com</a></p>`,
      );
      expect((await fetch('cordelia', plain.id)).message.content).toBe('<p>see readme.md and <code>zulip.com</code></p>');
      const narrow = [{ operator: 'channel', operand: 'Denmark' }, { operator: 'has', operand: 'link' }];
      const found = expectSuccess(await api.as('cordelia').get(MESSAGES, { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify(narrow) }));
      expect((found.messages as { id: number }[]).map((m) => m.id)).toEqual([linked.id]);
    });

    it('reports the sender now follows the topic they started (automatic_new_visibility_policy)', async () => {
      expect(expectSuccess(await send('hamlet', { type: 'channel', to: 'Denmark', topic: 'new topic', content: 'first' })).automatic_new_visibility_policy).toBe(3);
      expect(expectSuccess(await send('hamlet', { type: 'channel', to: 'Denmark', topic: 'New Topic', content: 'second' }))).not.toHaveProperty('automatic_new_visibility_policy');
      expect(expectSuccess(await send('cordelia', { type: 'channel', to: 'Denmark', topic: 'new topic', content: 'third' }))).not.toHaveProperty('automatic_new_visibility_policy');
    });

    it("follows the sender's own automatic topic settings, changed at any time (PATCH /settings)", async () => {
      const policyOf = (response: Parameters<typeof expectSuccess>[0]) => expectSuccess(response).automatic_new_visibility_policy;
      expect(policyOf(await send('hamlet', { type: 'channel', to: 'Denmark', topic: 'first', content: 'default: follow on initiation' }))).toBe(3);
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { automatically_follow_topics_policy: 4 }));
      expect(policyOf(await send('hamlet', { type: 'channel', to: 'Denmark', topic: 'second', content: 'never' }))).toBeUndefined();
      // On send: a topic someone else started is followed at the sender's first message in it.
      expectSuccess(await send('cordelia', { type: 'channel', to: 'Denmark', topic: 'cordelia started', content: 'hi' }));
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { automatically_follow_topics_policy: 2 }));
      expect(policyOf(await send('hamlet', { type: 'channel', to: 'Denmark', topic: 'cordelia started', content: 'on send' }))).toBe(3);
    });

    it("follows a mentioned user's automatically_follow_topics_where_mentioned", async () => {
      const followed = async (who: string) => (await api.userTopics(who)).filter((t) => t.visibility_policy === 3).map((t) => t.topic_name);
      expectSuccess(await send('hamlet', { type: 'channel', to: 'Denmark', topic: 'mention one', content: '@**Cordelia Lear** look' }));
      expect(await followed('cordelia')).toEqual(['mention one']);
      expectSuccess(await api.as('cordelia').patch('/api/v1/settings', { automatically_follow_topics_where_mentioned: false }));
      expectSuccess(await send('hamlet', { type: 'channel', to: 'Denmark', topic: 'mention two', content: '@**Cordelia Lear** again' }));
      expect(await followed('cordelia')).toEqual(['mention one']);
    });

    it('delivers the automatic follows of a send as user_topic, and the deprecated muted_topics to queues without user_topic', async () => {
      const register = queue;
      const eventsOf = async (who: string, queueId: string) => (await events(who, queueId)).map(({ id: _id, ...e }) => e);
      const queues = { hamlet: [await register('hamlet', ['user_topic']), await register('hamlet', ['muted_topics'])], cordelia: [await register('cordelia', ['user_topic']), await register('cordelia', ['muted_topics'])] };
      expectSuccess(await send('hamlet', { type: 'channel', to: 'Denmark', topic: 'started', content: 'hi @**Cordelia Lear**' }));
      for (const who of ['hamlet', 'cordelia'] as const) {
        const [modern, legacy] = queues[who];
        expect(await eventsOf(who, modern)).toEqual([{ type: 'user_topic', stream_id: denmark, topic_name: 'started', last_updated: expect.any(Number), visibility_policy: 3 }]);
        // Zulip's get_topic_mutes lists muted topics only: a followed topic leaves the list empty.
        expect(await eventsOf(who, legacy)).toEqual([{ type: 'muted_topics', muted_topics: [] }]);
      }
    });

    it('accepts the channel as an id, a JSON name and a JSON list of one, and the topic as `subject`', async () => {
      for (const to of [String(denmark), '"Denmark"', `[${denmark}]`, '["denmark"]']) {
        expectSuccess(await send('hamlet', { type: 'stream', to, subject: 'aliases', content: `to ${to}` }));
      }
    });

    it('sends the same request as multipart (zulip-js) and as a form (Python bindings)', async () => {
      const form = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'shapes', content: 'form', read_by_sender: true }));
      const multipart = expectSuccess(
        await api.as('hamlet').postMultipart(MESSAGES, { type: 'stream', to: 'Denmark', topic: 'shapes', content: 'multipart', read_by_sender: false, queue_id: 'q', local_id: '1.01' }),
      );
      expect(form).not.toHaveProperty('ignored_parameters_unsupported');
      expect(multipart).not.toHaveProperty('ignored_parameters_unsupported');
      expect((await fetch('hamlet', form.id)).message.flags).toEqual(['read']);
      expect((await fetch('hamlet', multipart.id)).message.flags).toEqual([]);
    });

    it('normalizes the topic: stripped, "(no topic)" and "general chat" are the empty topic, long ones cut', async () => {
      const a = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: '  spaced  ', content: 'a' }));
      const b = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: '(no topic)', content: 'b' }));
      const c = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'x'.repeat(61), content: 'c' }));
      expect((await fetch('hamlet', a.id)).message.subject).toBe('spaced');
      expect((await fetch('hamlet', b.id)).message.subject).toBe('general chat');
      expect((await api.as('hamlet').get(`${MESSAGES}/${b.id}`, { allow_empty_topic_name: true })).body.message.subject).toBe('');
      expect((await fetch('hamlet', c.id)).message.subject).toBe(`${'x'.repeat(57)}...`);
    });

    it('strips trailing whitespace and truncates content beyond 10,000 characters', async () => {
      const a = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 't', content: 'text  \n\n  ' }));
      const b = expectSuccess(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 't', content: 'y'.repeat(10_050) }));
      expect((await fetch('hamlet', a.id)).raw_content).toBe('text');
      expect((await fetch('hamlet', b.id)).raw_content).toBe(`${'y'.repeat(9980)}\n[message truncated]`);
    });

    it.each([
      [{ type: 'stream', to: 'Denmark', topic: 't', content: '   ' }, 'Message must not be empty'],
      [{ type: 'stream', to: 'Denmark', topic: 't', content: 'a\u0000b' }, 'Message must not contain null bytes'],
      [{ type: 'stream', to: 'Denmark', content: 'no topic' }, 'Missing topic'],
      [{ type: 'stream', topic: 't', content: 'no channel' }, 'Missing channel'],
      [{ type: 'stream', to: 'Denmark', topic: 'bad\u0001', content: 'x' }, 'Invalid character in topic, at position 4!'],
      [{ type: 'stream', to: '[1, 2]', topic: 't', content: 'x' }, 'Expected exactly one channel'],
      [{ type: 'stream', to: '{}', topic: 't', content: 'x' }, 'Invalid data type for channel'],
      [{ type: 'stream', to: '   ', topic: 't', content: 'x' }, "Channel name can't be empty."],
      [{ type: 'broadcast', to: 'Denmark', topic: 't', content: 'x' }, 'Invalid type'],
      [{ type: 'stream', to: 'Denmark', topic: 't' }, "Missing 'content' argument"],
      [{ to: 'Denmark', topic: 't', content: 'x' }, "Missing 'type' argument"],
    ])('refuses %j with "%s"', async (params, msg) => refused(await send('hamlet', params), msg));

    it('refuses both topic and subject', async () =>
      refused(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'a', subject: 'b', content: 'x' }), "Can't decide between 'topic' and 'subject' arguments", { code: 'REQUEST_CONFUSING_VAR' }));

    // The facts of a send (sender, channel, subscribers, subscription, alert words, linkifiers,
    // topic policies) are kept in memory between sends (SendMessageFactsLoader): every change to
    // them must reach the next send.
    it('applies every change to what a send depends on to the next send', async () => {
      const flags = async (who: string, messageId: number) => (await fetch(who, messageId)).message.flags as string[];
      const toDenmark = async (content: string, who = 'hamlet', to = 'Denmark') => expectSuccess(await send(who, { type: 'stream', to, topic: 'cache', content })).id as number;
      // Cordelia has a row (unread); Shiva, not subscribed, sees it as historical.
      let sent = await toDenmark('first');
      expect(await flags('cordelia', sent)).toEqual([]);
      expect(await flags('shiva', sent)).toEqual(['read', 'historical']);

      expectSuccess(await api.as('shiva').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'Denmark' }] }));
      expectSuccess(await api.as('cordelia').delete(SUBSCRIPTIONS, { subscriptions: ['Denmark'] }));
      sent = await toDenmark('after subscriptions changed');
      expect(await flags('shiva', sent)).toEqual([]);
      expect(await flags('cordelia', sent)).toEqual(['read', 'historical']);

      expectSuccess(await api.as('shiva').post('/api/v1/users/me/alert_words', { alert_words: ['zebra'] }));
      sent = await toDenmark('a zebra');
      expect(await flags('shiva', sent)).toEqual(['has_alert_word']);

      expectSuccess(await api.as('iago').post('/api/v1/realm/filters', { pattern: 'CACHE-(?P<id>\\d+)', url_template: 'https://tracker.test/{id}' }));
      sent = await toDenmark('see CACHE-7');
      expect((await fetch('hamlet', sent)).message.content).toContain('href="https://tracker.test/7"');

      expectSuccess(await api.as('iago').patch(`/api/v1/streams/${denmark}`, { new_name: 'Elsinore' }));
      await refused(await send('hamlet', { type: 'stream', to: 'Denmark', topic: 'cache', content: 'old name' }), "Channel 'Denmark' does not exist", { code: 'STREAM_DOES_NOT_EXIST' });
      sent = await toDenmark('new name', 'hamlet', 'Elsinore');
      expect((await fetch('hamlet', sent)).message.display_recipient).toBe('Elsinore');

      // Recipients are who the MessageSent event names.
      const recipients = async (content: string) => {
        await api.markEvents();
        await toDenmark(content, 'hamlet', 'Elsinore');
        return (await api.newEvents()).find((e) => e.type === 'MessageSent')!.data.recipientIds as number[];
      };
      expect(await recipients('before a deactivation')).toEqual([id('hamlet'), id('shiva')].sort((a, b) => a - b));
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('shiva')}`));
      expect(await recipients('after a deactivation')).toEqual([id('hamlet')]);
    });

    it('answers STREAM_DOES_NOT_EXIST with the channel named', async () => {
      const byName = await refused(await send('hamlet', { type: 'stream', to: 'Nowhere', topic: 't', content: 'x' }), "Channel 'Nowhere' does not exist", { code: 'STREAM_DOES_NOT_EXIST' });
      expect(byName.stream).toBe('Nowhere');
      const byId = await refused(await send('hamlet', { type: 'stream', to: '9999', topic: 't', content: 'x' }), "Channel with ID '9999' does not exist", { code: 'STREAM_DOES_NOT_EXIST' });
      expect(byId.stream_id).toBe(9999);
    });
  });

  describe('posting permission', () => {
    it('lets anyone but guests post to public channels, subscribed or not', async () => {
      await createChannel('hamlet', 'Denmark');
      expectSuccess(await send('cordelia', { type: 'stream', to: 'Denmark', topic: 't', content: 'unsubscribed member' }));
      await refused(await send('polonius', { type: 'stream', to: 'Denmark', topic: 't', content: 'guest' }), "Not authorized to send to channel 'Denmark'");
    });

    it('lets only subscribers post to private channels', async () => {
      await createChannel('hamlet', 'secret', { invite_only: true });
      expectSuccess(await send('hamlet', { type: 'stream', to: 'secret', topic: 't', content: 'subscriber' }));
      await refused(await send('cordelia', { type: 'stream', to: 'secret', topic: 't', content: 'outsider' }), "Not authorized to send to channel 'secret'");
      await refused(await send('iago', { type: 'stream', to: 'secret', topic: 't', content: 'admin' }), "Not authorized to send to channel 'secret'");
    });

    it('lets guests post where they are subscribed', async () => {
      await createChannel('hamlet', 'guests', { principals: [id('hamlet'), id('polonius')] });
      expectSuccess(await send('polonius', { type: 'stream', to: 'guests', topic: 't', content: 'hello' }));
    });

    it('refuses archived channels', async () => {
      const archived = await createChannel('iago', 'old');
      expectSuccess(await api.as('iago').delete(`/api/v1/streams/${archived}`));
      await refused(await send('iago', { type: 'stream', to: String(archived), topic: 't', content: 'x' }), "Not authorized to send to channel 'old'");
    });
  });

  describe("the organization's topics_policy (for channels whose own is \"inherit\")", () => {
    const refusal = 'Sending messages to the general chat is not allowed in this channel.';
    const setTopicsPolicy = async (policy: string) => expectSuccess(await api.as('iago').patch('/api/v1/realm', { topics_policy: policy }));
    beforeEach(() => createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] }));

    it('refuses the empty topic under disable_empty_topic, "(no topic)" and "general chat" included, and appends nothing', async () => {
      await setTopicsPolicy('disable_empty_topic');
      for (const topic of ['', '(no topic)', 'general chat', '  ']) {
        await api.markEvents();
        const response = await send('cordelia', { type: 'stream', to: 'Denmark', topic, content: 'no topic' });
        expectError(response, refusal, { code: 'BAD_REQUEST', status: 400 });
        expect(await api.newEvents()).toEqual([]);
      }
    });

    it('still accepts named topics under disable_empty_topic', async () => {
      await setTopicsPolicy('disable_empty_topic');
      const { id: messageId } = expectSuccess(await send('cordelia', { type: 'stream', to: 'Denmark', topic: 'named', content: 'fine' }));
      expect((await fetch('hamlet', messageId)).message).toMatchObject({ subject: 'named' });
    });

    it('accepts the empty topic again under allow_empty_topic', async () => {
      await setTopicsPolicy('disable_empty_topic');
      await setTopicsPolicy('allow_empty_topic');
      const { id: messageId } = expectSuccess(await send('cordelia', { type: 'stream', to: 'Denmark', topic: '(no topic)', content: 'fine' }));
      expect((await fetch('hamlet', messageId)).message).toMatchObject({ subject: 'general chat' });
    });

    it('leaves direct messages alone', async () => {
      await setTopicsPolicy('disable_empty_topic');
      expectSuccess(await send('cordelia', { type: 'direct', to: JSON.stringify([id('hamlet')]), content: 'hi' }));
    });
  });

  describe('wildcard mentions', () => {
    it('refuses @**all** in a channel of more than 15 subscribers unless an administrator sends it', async () => {
      await createChannel('iago', 'crowd');
      for (let i = 0; i < 16; i++) {
        const created = await api.as('iago').post('/api/v1/users', { email: `u${i}@acme.test`, password: 'secret-password', full_name: `User ${i}` });
        expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'crowd' }], principals: [expectSuccess(created).user_id] }));
      }
      await refused(await send('hamlet', { type: 'stream', to: 'crowd', topic: 't', content: 'hi @**all**' }), 'You do not have permission to use channel wildcard mentions in this channel.', {
        code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      });
      expectSuccess(await send('hamlet', { type: 'stream', to: 'crowd', topic: 't', content: 'hi @**topic**' }));
      const sent = expectSuccess(await send('iago', { type: 'stream', to: 'crowd', topic: 't', content: 'hi @**everyone**' }));
      expect((await fetch('iago', sent.id)).message.content).toContain('channel-wildcard-mention');
    });
  });

  describe('direct messages', () => {
    it('sends to user ids, emails or comma-separated emails, and to oneself', async () => {
      const byIds = expectSuccess(await send('hamlet', { type: 'direct', to: [id('cordelia')], content: 'hi' }));
      const byEmails = expectSuccess(await send('hamlet', { type: 'private', to: [email('cordelia'), email('iago')], content: 'hi all' }));
      const byText = expectSuccess(await send('hamlet', { type: 'direct', to: `${email('cordelia')}, ${email('hamlet')}`, content: 'me too' }));
      const self = expectSuccess(await send('hamlet', { type: 'direct', to: [id('hamlet')], content: 'note to self' }));
      const names = (message: { display_recipient: { id: number }[] }) => message.display_recipient.map((r) => r.id);
      expect(names((await fetch('cordelia', byIds.id)).message)).toEqual([id('hamlet'), id('cordelia')].sort((a, b) => a - b));
      expect(names((await fetch('iago', byEmails.id)).message)).toEqual([id('iago'), id('hamlet'), id('cordelia')].sort((a, b) => a - b));
      expect(names((await fetch('cordelia', byText.id)).message)).toEqual([id('hamlet'), id('cordelia')].sort((a, b) => a - b));
      expect((await fetch('hamlet', self.id)).message).toMatchObject({ type: 'private', display_recipient: [{ id: id('hamlet'), email: email('hamlet'), full_name: 'King Hamlet', is_mirror_dummy: false }] });
      await refused(await api.as('iago').get(`${MESSAGES}/${byIds.id}`), 'Invalid message(s)');
    });

    it.each([
      [{ to: '[9999]' }, 'Invalid user ID 9999'],
      [{ to: 'nobody@acme.test' }, "Invalid email 'nobody@acme.test'"],
      [{ to: '[]' }, 'Message must have recipients'],
      [{}, 'Message must have recipients'],
      [{ to: '[1, "a@acme.test"]' }, 'Recipient lists may contain emails or user IDs, but not both.'],
      [{ to: '12' }, 'Invalid data type for recipients'],
    ])('refuses %j with "%s"', async (params, msg) => refused(await send('hamlet', { type: 'direct', content: 'x', ...params }), msg));

    it('refuses deactivated recipients', async () => {
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('cordelia')}`));
      await refused(await send('hamlet', { type: 'direct', to: [id('cordelia')], content: 'x' }), `'${email('cordelia')}' is no longer using Zulip.`);
    });
  });
});
