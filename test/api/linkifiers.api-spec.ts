import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** zerver/tests/test_realm_linkifiers.py (and the linkifier cases of test_markdown.py) through the real HTTP stack. */
describe('linkifiers', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const FILTERS = '/api/v1/realm/filters';
  const LINKIFIERS = '/api/v1/realm/linkifiers';
  const ISSUE = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' };
  const { id, register, events: eventsNow, sendToChannel, refused } = personaHelpers(() => api);
  const add = async (params: Record<string, unknown>, who = 'iago') => expectSuccess(await api.as(who).post(FILTERS, params)).id as number;
  const list = async (who = 'hamlet') => expectSuccess(await api.as(who).get(LINKIFIERS)).linkifiers;
  const eventsOf = async (who: string, queueId: string, atLeast: number) => {
    for (let i = 0; ; i++) {
      const events = await eventsNow(who, queueId);
      if (events.length >= atLeast || i >= 50) return events.filter((e) => e.type !== 'heartbeat');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  describe('POST /realm/filters and GET /realm/linkifiers', () => {
    it('adds linkifiers that everyone lists in order, in Zulip\'s shape, stripped', async () => {
      const first = await add({ pattern: ' #(?P<id>[0-9]+) ', url_template: ' https://trac.example.com/ticket/{id}\n' });
      const second = await add({ pattern: '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)', url_template: 'https://github.com/{org}/{repo}/issue/{id}' });
      expect(await list('polonius')).toEqual([
        { pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}', id: first },
        { pattern: '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)', url_template: 'https://github.com/{org}/{repo}/issue/{id}', id: second },
      ]);
    });

    it('is for administrators', async () => {
      await api.markEvents();
      await refused(await api.as('hamlet').post(FILTERS, ISSUE), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
      await refused(await api.as('shiva').post(FILTERS, ISSUE), 'Must be an organization administrator');
      expect(await add(ISSUE, 'desdemona')).toEqual(expect.any(Number));
    });

    it("answers Zulip's validation errors, with `errors` by field, and stores nothing", async () => {
      await add(ISSUE);
      await api.markEvents();
      const blank = await refused(await api.as('iago').post(FILTERS, { pattern: '', url_template: 'https://realm.com/my_realm_filter/{id}' }), 'This field cannot be blank.');
      expect(blank.errors).toEqual({ pattern: ['This field cannot be blank.'], __all__: ["Group 'id' in URL template is not present in linkifier pattern."] });
      const bad = await refused(await api.as('iago').post(FILTERS, { pattern: '(foo', url_template: 'https://realm.com/' }), 'Bad regular expression: missing ): (foo', { code: 'BAD_REQUEST' });
      expect(bad.errors).toEqual({ __all__: ['Bad regular expression: missing ): (foo'] });
      await refused(await api.as('iago').post(FILTERS, { pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://realm.com/{id}' }), 'Bad regular expression: bad repetition operator: ????');
      await refused(await api.as('iago').post(FILTERS, { pattern: '(?<=x)(?P<id>\\d+)', url_template: 'https://realm.com/{id}' }), 'Bad regular expression: invalid perl operator: (?<=');
      await refused(await api.as('iago').post(FILTERS, { pattern: 'ZUL-(?P<id>\\d+)', url_template: '$fgfg' }), "Group 'id' in linkifier pattern is not present in URL template.");
      await refused(await api.as('iago').post(FILTERS, { pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://realm.com/my_realm_filter/{hello}' }), "Group 'hello' in URL template is not present in linkifier pattern.");
      await refused(await api.as('iago').post(FILTERS, { pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://realm.com/{id' }), 'Invalid URL template.');
      await refused(await api.as('iago').post(FILTERS, { ...ISSUE, url_template: 'https://other.test/{id}' }), 'Realm filter with this Realm and Pattern already exists.');
      await refused(await api.as('iago').post(FILTERS, { url_template: 'https://realm.com/' }), "Missing 'pattern' argument");
      await refused(await api.as('iago').post(FILTERS, { pattern: 'x' }), "Missing 'url_template' argument");
      expect(await list()).toHaveLength(1);
    });
  });

  describe('PATCH /realm/filters/{filter_id}', () => {
    it('changes the pattern and the URL template', async () => {
      const linkifier = await add({ pattern: '#(?P<id>[123])', url_template: 'https://realm.com/my_realm_filter/{id}' });
      expectSuccess(await api.as('iago').patch(`${FILTERS}/${linkifier}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}' }));
      expect(await list()).toEqual([{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}', id: linkifier }]);
    });

    it("answers Zulip's errors and changes nothing", async () => {
      const linkifier = await add(ISSUE);
      await api.markEvents();
      await refused(await api.as('iago').patch(`${FILTERS}/${linkifier + 1}`, ISSUE), 'Linkifier not found.');
      await refused(await api.as('iago').patch(`${FILTERS}/${linkifier}`, { pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://realm.com/{id}' }), 'Bad regular expression: bad repetition operator: ????');
      await refused(await api.as('iago').patch(`${FILTERS}/${linkifier}`, { pattern: '#(?P<id>[123])', url_template: '{id' }), 'Invalid URL template.');
      await refused(await api.as('iago').patch(`${FILTERS}/${linkifier}`, { pattern: '#(?P<id>[123])' }), "Missing 'url_template' argument");
      await refused(await api.as('hamlet').patch(`${FILTERS}/${linkifier}`, ISSUE), 'Must be an organization administrator');
      expect((await api.as('iago').patch(`${FILTERS}/abc`, ISSUE)).status).toBe(404);
      expect(await list()).toEqual([{ ...ISSUE, id: linkifier }]);
    });
  });

  describe('DELETE /realm/filters/{filter_id}', () => {
    it('removes it; an unknown id is "Linkifier not found."', async () => {
      const linkifier = await add(ISSUE);
      await api.markEvents();
      await refused(await api.as('iago').delete(`${FILTERS}/${linkifier + 1}`), 'Linkifier not found.');
      await refused(await api.as('hamlet').delete(`${FILTERS}/${linkifier}`), 'Must be an organization administrator');
      expectSuccess(await api.as('iago').delete(`${FILTERS}/${linkifier}`));
      expect(await list()).toEqual([]);
      await api.markEvents();
      await refused(await api.as('iago').delete(`${FILTERS}/${linkifier}`), 'Linkifier not found.');
    });
  });

  describe('PATCH /realm/linkifiers', () => {
    it("reorders; new linkifiers come last; deleting keeps the order; Zulip's errors", async () => {
      expectSuccess(await api.as('iago').patch(LINKIFIERS, { ordered_linkifier_ids: [] }));
      const ids = [];
      for (const n of [1, 2, 3]) ids.push(await add({ pattern: `${n}#(?P<id>[123])`, url_template: `https://filter.com/${n}/{id}` }));
      const order = () => list().then((l: { id: number }[]) => l.map((x) => x.id));
      expect(await order()).toEqual(ids);
      expectSuccess(await api.as('iago').patch(LINKIFIERS, { ordered_linkifier_ids: [ids[2], ids[1], ids[0]] }));
      expect(await order()).toEqual([ids[2], ids[1], ids[0]]);
      const fourth = await add({ pattern: '3#123', url_template: 'https://example.com' });
      expect(await order()).toEqual([ids[2], ids[1], ids[0], fourth]);
      expectSuccess(await api.as('iago').delete(`${FILTERS}/${ids[0]}`));
      expect(await order()).toEqual([ids[2], ids[1], fourth]);
      await api.markEvents();
      await refused(await api.as('iago').patch(LINKIFIERS, { ordered_linkifier_ids: [ids[0], fourth, ids[2], ids[1]] }), 'The ordered list must enumerate all existing linkifiers exactly once');
      await refused(await api.as('iago').patch(LINKIFIERS, { ordered_linkifier_ids: [fourth, ids[2], ids[1], fourth] }), 'The ordered list must not contain duplicated linkifiers');
      await refused(await api.as('iago').patch(LINKIFIERS, { ordered_linkifier_ids: [fourth, ids[2]] }), 'The ordered list must enumerate all existing linkifiers exactly once');
      await refused(await api.as('iago').patch(LINKIFIERS, { ordered_linkifier_ids: 'nope' }), 'ordered_linkifier_ids is not valid JSON');
      await refused(await api.as('hamlet').patch(LINKIFIERS, { ordered_linkifier_ids: [fourth, ids[2], ids[1]] }), 'Must be an organization administrator');
      expect(await order()).toEqual([ids[2], ids[1], fourth]);
    });
  });

  describe('events and register', () => {
    it('sends realm_linkifiers with the whole ordered list to queues with the linkifier_url_template capability only', async () => {
      const capable = await register('hamlet', { event_types: ['realm_linkifiers'], client_capabilities: { linkifier_url_template: true } });
      const legacy = await register('cordelia', { event_types: ['realm_linkifiers', 'realm_filters'] });
      expect(capable.realm_linkifiers).toEqual([]);
      const first = await add(ISSUE);
      const second = await add({ pattern: 'PR(?P<id>\\d+)', url_template: 'https://code.test/{id}' });
      expectSuccess(await api.as('iago').patch(LINKIFIERS, { ordered_linkifier_ids: [second, first] }));
      expectSuccess(await api.as('iago').patch(`${FILTERS}/${first}`, { pattern: '#(?P<id>\\d+)', url_template: 'https://t.test/{id}' }));
      expectSuccess(await api.as('iago').delete(`${FILTERS}/${second}`));
      const events = await eventsOf('hamlet', capable.queue_id, 5);
      const firstNow = { pattern: '#(?P<id>\\d+)', url_template: 'https://t.test/{id}', id: first };
      const secondLink = { pattern: 'PR(?P<id>\\d+)', url_template: 'https://code.test/{id}', id: second };
      expect(events.map(({ id: _id, ...e }) => e)).toEqual([
        { type: 'realm_linkifiers', realm_linkifiers: [{ ...ISSUE, id: first }] },
        { type: 'realm_linkifiers', realm_linkifiers: [{ ...ISSUE, id: first }, secondLink] },
        { type: 'realm_linkifiers', realm_linkifiers: [secondLink, { ...ISSUE, id: first }] },
        { type: 'realm_linkifiers', realm_linkifiers: [secondLink, firstNow] },
        { type: 'realm_linkifiers', realm_linkifiers: [firstNow] },
      ]);
      expect(await eventsOf('cordelia', legacy.queue_id, 0)).toEqual([]);
      // A fresh register agrees with the state plus the events.
      const fresh = await register('hamlet', { fetch_event_types: ['realm_linkifiers'], client_capabilities: { linkifier_url_template: true } });
      expect(fresh.realm_linkifiers).toEqual(events[events.length - 1].realm_linkifiers);
    });

    it('answers realm_linkifiers only with the capability, and the legacy realm_filters always empty', async () => {
      const linkifier = await add(ISSUE);
      const capable = await register('polonius', { fetch_event_types: ['realm_linkifiers', 'realm_filters'], client_capabilities: { linkifier_url_template: true } });
      expect(capable.realm_linkifiers).toEqual([{ ...ISSUE, id: linkifier }]);
      expect(capable.realm_filters).toEqual([]);
      const legacy = await register('polonius', { fetch_event_types: ['realm_linkifiers'] });
      expect(legacy.realm_linkifiers).toEqual([]);
      expect(legacy).not.toHaveProperty('realm_filters');
    });
  });

  describe('rendering and topic_links', () => {
    beforeEach(async () => {
      expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [id('hamlet'), id('cordelia'), id('iago')] }));
    });
    const send = (content: string, topic = 'greetings') => sendToChannel('hamlet', 'Denmark', topic, content);
    const fetch = async (messageId: number) => expectSuccess(await api.as('cordelia').get(`/api/v1/messages/${messageId}`)).message;

    it('links matches in sent messages, not in code, and lists them in topic_links', async () => {
      await add(ISSUE);
      await add({ pattern: '(?i)ZUL-(?P<id>\\d+)', url_template: 'https://zulip.test/{id}' });
      const messageId = await send('fixes #123 and `#456`, see zul-7', 'ZUL-9 and #10 https://example.com/x');
      const message = await fetch(messageId);
      expect(message.content).toBe(
        '<p>fixes <a href="https://trac.example.com/ticket/123" target="_blank" rel="noopener noreferrer">#123</a> and <code>#456</code>, '
          + 'see <a href="https://zulip.test/7" target="_blank" rel="noopener noreferrer">zul-7</a></p>',
      );
      expect(message.topic_links).toEqual([
        { text: 'ZUL-9', url: 'https://zulip.test/9' },
        { text: '#10', url: 'https://trac.example.com/ticket/10' },
        { text: 'https://example.com/x', url: 'https://example.com/x' },
      ]);
      const history = expectSuccess(await api.as('cordelia').get('/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).messages;
      expect(history[0].topic_links).toEqual(message.topic_links);
    });

    it('carries the links in message events and re-renders on edit with the current linkifiers', async () => {
      const queue = await register('cordelia', { event_types: ['message', 'update_message'] });
      await add(ISSUE);
      const messageId = await send('see #5', 'bug #6');
      const [sent] = await eventsOf('cordelia', queue.queue_id, 1);
      expect(sent.message.content).toContain('<a href="https://trac.example.com/ticket/5"');
      expect(sent.message.topic_links).toEqual([{ text: '#6', url: 'https://trac.example.com/ticket/6' }]);
      await add({ pattern: 'PR(?P<id>\\d+)', url_template: 'https://code.test/{id}' });
      expectSuccess(await api.as('hamlet').patch(`/api/v1/messages/${messageId}`, { content: 'now PR7', topic: 'PR8' }));
      expect((await fetch(messageId)).content).toBe('<p>now <a href="https://code.test/7" target="_blank" rel="noopener noreferrer">PR7</a></p>');
      const events = await eventsOf('cordelia', queue.queue_id, 2);
      const updates = events.filter((e) => e.type === 'update_message');
      expect(updates.some((e) => JSON.stringify(e.topic_links) === JSON.stringify([{ text: 'PR8', url: 'https://code.test/8' }]))).toBe(true);
    });

    it('does not stall a send on a catastrophic pattern such as (a+)+$', async () => {
      await add({ pattern: '(a+)+$', url_template: 'https://x.test/' });
      const started = Date.now();
      const messageId = await send(`${'a'.repeat(27)}!`);
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await fetch(messageId)).content).toBe(`<p>${'a'.repeat(27)}!</p>`);
    });
  });
});
