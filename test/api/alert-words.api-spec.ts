import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** ≈ zerver/tests/test_alert_words.py: GET/POST/DELETE /users/me/alert_words and the has_alert_word flag. */
const URL = '/api/v1/users/me/alert_words';
const MESSAGES = '/api/v1/messages';

describe('alert words', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, sendToChannel, refused: refusedWith, events: eventsNow } = personaHelpers(() => api);
  const wordsOf = async (who: string) => expectSuccess(await api.as(who).get(URL)).alert_words as string[];
  const add = async (who: string, words: unknown) => expectSuccess(await api.as(who).post(URL, { alert_words: words })).alert_words as string[];
  const refused = (response: Parameters<typeof expectError>[0], msg: string, code = 'BAD_REQUEST') => refusedWith(response, msg, { code });
  const pollEvents = async (who: string, queueId: string): Promise<any[]> => {
    for (let i = 0; i < 100; i++) {
      const events = await eventsNow(who, queueId);
      if (events.length > 0) return events;
      await new Promise((r) => setTimeout(r, 20));
    }
    return [];
  };

  describe('GET, POST, DELETE /users/me/alert_words', () => {
    it('starts empty, adds stripped words without blanks, answers the whole list each time', async () => {
      expect(await wordsOf('hamlet')).toEqual([]);
      expect(await add('hamlet', ['one ', '\n two', 'three', '  '])).toEqual(['one', 'two', 'three']);
      expect(await add('hamlet', ['multi-word word', '☃'])).toEqual(['one', 'two', 'three', 'multi-word word', '☃']);
      expect(await wordsOf('hamlet')).toEqual(['one', 'two', 'three', 'multi-word word', '☃']);
      expect(await wordsOf('cordelia')).toEqual([]);
    });

    it('is case-insensitive for adding and removing', async () => {
      await add('hamlet', ['alert', 'Two']);
      await api.markEvents();
      expect(await add('hamlet', ['ALert', 'ALERT'])).toEqual(['alert', 'Two']);
      expect(await api.newEvents()).toEqual([]);
      const after = expectSuccess(await api.as('hamlet').delete(URL, { alert_words: ['ALERT', 'two', 'absent'] }));
      expect(after.alert_words).toEqual([]);
    });

    it('takes the request as zulip-js sends it (multipart POST)', async () => {
      const body = expectSuccess(await api.as('hamlet').postMultipart(URL, { alert_words: ['milk', 'cookies'] }));
      expect(body.alert_words).toEqual(['milk', 'cookies']);
      expect(body.ignored_parameters_unsupported).toBeUndefined();
    });

    it('refuses a word over 100 characters, a missing or malformed list, changing nothing', async () => {
      await refused(await api.as('hamlet').post(URL, { alert_words: ['fine', 'x'.repeat(101)] }), 'alert_words[1] is too long (limit: 100 characters)');
      expect(await add('hamlet', ['y'.repeat(100)])).toEqual(['y'.repeat(100)]);
      await api.markEvents();
      await refused(await api.as('hamlet').post(URL), "Missing 'alert_words' argument", 'REQUEST_VARIABLE_MISSING');
      await refused(await api.as('hamlet').post(URL, { alert_words: 'milk' }), 'alert_words is not valid JSON');
      await refused(await api.as('hamlet').post(URL, { alert_words: { a: 1 } }), 'alert_words is not a list');
      await refused(await api.as('hamlet').post(URL, { alert_words: [1] }), 'alert_words[0] is not a string');
      await refused(await api.as('hamlet').delete(URL), "Missing 'alert_words' argument", 'REQUEST_VARIABLE_MISSING');
      expect(await wordsOf('hamlet')).toEqual(['y'.repeat(100)]);
    });

    it('sends alert_words events with the whole list and has alert_words in /register', async () => {
      await add('hamlet', ['soup']);
      const registered = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['alert_words'] }));
      expect(registered.alert_words).toEqual(['soup']);
      await add('hamlet', ['bread']);
      expect(await pollEvents('hamlet', registered.queue_id)).toEqual([{ id: 0, type: 'alert_words', alert_words: ['soup', 'bread'] }]);
      expectSuccess(await api.as('hamlet').delete(URL, { alert_words: ['SOUP'] }));
      const { events } = expectSuccess(await api.as('hamlet').get('/api/v1/events', { queue_id: registered.queue_id, last_event_id: 0 }));
      expect(events).toEqual([{ id: 1, type: 'alert_words', alert_words: ['bread'] }]);
      const fresh = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['alert_words'] }));
      expect(fresh.alert_words).toEqual(['bread']);
    });
  });

  describe('has_alert_word', () => {
    let messageFlags: (who: string, messageId: number) => Promise<string[]>;
    beforeEach(async () => {
      expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [id('iago'), id('hamlet'), id('cordelia')] }));
      messageFlags = async (who, messageId) => expectSuccess(await api.as(who).get(`${MESSAGES}/${messageId}`)).message.flags as string[];
    });
    const send = (who: string, content: string) => sendToChannel(who, 'Denmark', 'alerts', content);
    const alerts = async (content: string, who = 'hamlet') => (await messageFlags(who, await send('cordelia', content))).includes('has_alert_word');

    it('flags messages holding a recipient\'s word, case-insensitively, at word boundaries (test_alert_flags)', async () => {
      await add('hamlet', ['one', 'two', 'three']);
      expect(await alerts('Normal alert one time')).toBe(true);
      expect(await alerts('two normal alerts')).toBe(true);
      expect(await alerts('This one? should alert')).toBe(true);
      expect(await alerts('Case of ONE, won\'t stop me')).toBe(true);
      expect(await alerts("Don't alert on http://t.co/one/ URLs")).toBe(false);
      expect(await alerts("Don't alert on clone, twofold or seventytwofold")).toBe(false);
      expect(await alerts('```\none\n```')).toBe(false);
      // Only the users whose words match.
      expect(await alerts('Normal alert one time', 'iago')).toBe(false);
    });

    it('flags the sender\'s own words, direct messages, and is:alerted finds them', async () => {
      await add('hamlet', ['ALERT']);
      const own = await send('hamlet', 'this is an ALERT for you');
      expect(await messageFlags('hamlet', own)).toContain('has_alert_word');
      const dm = expectSuccess(await api.as('cordelia').post(MESSAGES, { type: 'direct', to: [id('hamlet')], content: 'alert!' })).id as number;
      expect(await messageFlags('hamlet', dm)).toContain('has_alert_word');
      expect(await messageFlags('cordelia', dm)).not.toContain('has_alert_word');
      const found = expectSuccess(await api.as('hamlet').get(MESSAGES, { anchor: 'newest', num_before: 10, num_after: 0, narrow: [['is', 'alerted']] }));
      expect((found.messages as { id: number }[]).map((m) => m.id)).toEqual([own, dm]);
    });

    it('recomputes the flag when the content is edited (test_update_alert_words)', async () => {
      await add('hamlet', ['ALERT']);
      const messageId = await send('hamlet', 'this is an ALERT for you');
      expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${messageId}`, { content: 'new ALERT for you' }));
      expect(await messageFlags('hamlet', messageId)).toContain('has_alert_word');
      expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${messageId}`, { content: 'sorry false alarm' }));
      expect(await messageFlags('hamlet', messageId)).not.toContain('has_alert_word');
      await add('cordelia', ['again']);
      expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${messageId}`, { content: 'alert again' }));
      expect(await messageFlags('hamlet', messageId)).toContain('has_alert_word');
      expect(await messageFlags('cordelia', messageId)).toContain('has_alert_word');
      expect(await messageFlags('iago', messageId)).not.toContain('has_alert_word');
    });

    it('puts has_alert_word in the recipient\'s message event', async () => {
      await add('hamlet', ['soup']);
      const { queue_id } = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['message'] }));
      await send('cordelia', 'Soup is ready');
      const [event] = await pollEvents('hamlet', queue_id);
      expect(event.type).toBe('message');
      expect(event.flags).toContain('has_alert_word');
    });

    it('ignores the words of deactivated users', async () => {
      await add('hamlet', ['soup']);
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('hamlet')}`));
      const messageId = await send('cordelia', 'soup');
      const events = await api.eventStore.readAll({ maxCount: 100_000 });
      const sent = events.find((e) => e.type === 'MessageSent' && (e.data as { messageId: number }).messageId === messageId)!;
      expect((sent.data as { alertWordUserIds?: number[] }).alertWordUserIds).toBeUndefined();
    });
  });
});
