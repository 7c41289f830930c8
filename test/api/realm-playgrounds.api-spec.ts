import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** zerver/tests/test_realm_playgrounds.py (and the realm_playgrounds cases of test_events.py) through the real HTTP stack. */
describe('code playgrounds', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const PLAYGROUNDS = '/api/v1/realm/playgrounds';
  const PYTHON = { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' };
  const add = async (params: Record<string, unknown> = PYTHON, who = 'iago') => expectSuccess(await api.as(who).post(PLAYGROUNDS, params)).id as number;
  const list = async (who = 'hamlet') => expectSuccess(await api.as(who).post('/api/v1/register', { fetch_event_types: ['realm_playgrounds'] })).realm_playgrounds;
  const { refused, events: eventsNow } = personaHelpers(() => api);
  const eventsOf = async (who: string, queueId: string, atLeast: number) => {
    for (let i = 0; ; i++) {
      const events = await eventsNow(who, queueId);
      if (events.length >= atLeast || i >= 50) return events.filter((e) => e.type !== 'heartbeat').map(({ id: _id, ...e }) => e);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  describe('POST /realm/playgrounds', () => {
    it('adds playgrounds, stripped, that every user gets in /register in the order they were added', async () => {
      const first = await add({ name: ' Python playground ', pygments_language: ' Python ', url_template: ' https://python.example.com?code={code}\n' });
      const second = await add({ ...PYTHON, name: 'Python playground 2', url_template: 'https://python2.example.com/{code}' });
      expect(second).toBeGreaterThan(first);
      const expected = [
        { id: first, ...PYTHON },
        { id: second, name: 'Python playground 2', pygments_language: 'Python', url_template: 'https://python2.example.com/{code}' },
      ];
      expect(await list('hamlet')).toEqual(expected);
      expect(await list('polonius')).toEqual(expected);
    });

    it('is for administrators', async () => {
      await api.markEvents();
      for (const who of ['hamlet', 'shiva', 'polonius']) {
        await refused(await api.as(who).post(PLAYGROUNDS, PYTHON), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
      }
      // The role is checked before the parameters, as Zulip's decorator is.
      await refused(await api.as('hamlet').post(PLAYGROUNDS, {}), 'Must be an organization administrator');
      expect(await add(PYTHON, 'desdemona')).toEqual(expect.any(Number));
    });

    it("answers Zulip's errors, with `errors` by field, and stores nothing", async () => {
      await add();
      await api.markEvents();
      await refused(await api.as('iago').post(PLAYGROUNDS, { ...PYTHON, pygments_language: 'a$b$c' }), 'Invalid characters in pygments language');
      await refused(await api.as('iago').post(PLAYGROUNDS, { ...PYTHON, pygments_language: 'x'.repeat(41) }), 'pygments_language is too long (limit: 40 characters)');
      const invalid = await refused(await api.as('iago').post(PLAYGROUNDS, { ...PYTHON, name: 'Invalid URL', url_template: 'https://invalid-url.com/{code' }), 'Invalid URL template.');
      expect(invalid.errors).toEqual({ url_template: ['Invalid URL template.'] });
      await refused(await api.as('iago').post(PLAYGROUNDS, { ...PYTHON, name: 'No code', url_template: 'https://python.example.com' }), 'Missing the required variable "code" in the URL template');
      await refused(
        await api.as('iago').post(PLAYGROUNDS, { ...PYTHON, name: 'Two', url_template: 'https://python.example.com/{lang}?code={code}' }),
        '"code" should be the only variable present in the URL template',
      );
      const blank = await refused(await api.as('iago').post(PLAYGROUNDS, { ...PYTHON, name: '  ', pygments_language: '' }), 'This field cannot be blank.');
      expect(blank.errors).toEqual({ name: ['This field cannot be blank.'], pygments_language: ['This field cannot be blank.'] });
      const duplicate = await refused(await api.as('iago').post(PLAYGROUNDS, { ...PYTHON, url_template: 'https://other.example.com/{code}' }), 'Realm playground with this Realm, Pygments language and Name already exists.');
      expect(duplicate.errors).toEqual({ __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] });
      await refused(await api.as('iago').post(PLAYGROUNDS, { url_template: PYTHON.url_template, pygments_language: 'Python' }), "Missing 'name' argument");
      await refused(await api.as('iago').post(PLAYGROUNDS, { name: 'x', pygments_language: 'Python' }), "Missing 'url_template' argument");
      await refused(await api.as('iago').post(PLAYGROUNDS, { name: 'x', url_template: PYTHON.url_template }), "Missing 'pygments_language' argument");
      expect(await list()).toHaveLength(1);
    });
  });

  describe('DELETE /realm/playgrounds/{playground_id}', () => {
    it('removes it; an unknown id is "Invalid playground"', async () => {
      const playground = await add();
      await api.markEvents();
      await refused(await api.as('iago').delete(`${PLAYGROUNDS}/${playground + 1}`), 'Invalid playground');
      for (const who of ['hamlet', 'shiva', 'polonius']) {
        await refused(await api.as(who).delete(`${PLAYGROUNDS}/${playground}`), 'Must be an organization administrator');
      }
      expect((await api.as('iago').delete(`${PLAYGROUNDS}/abc`)).status).toBe(404);
      expectSuccess(await api.as('desdemona').delete(`${PLAYGROUNDS}/${playground}`));
      expect(await list()).toEqual([]);
      await api.markEvents();
      await refused(await api.as('iago').delete(`${PLAYGROUNDS}/${playground}`), 'Invalid playground');
    });
  });

  describe('events', () => {
    it('sends realm_playgrounds with the whole list to every user, guests included', async () => {
      const queues = await Promise.all(
        ['hamlet', 'polonius', 'iago'].map(async (who) => [who, expectSuccess(await api.as(who).post('/api/v1/register', { event_types: ['realm_playgrounds'] }))] as const),
      );
      expect(queues[0][1].realm_playgrounds).toEqual([]);
      const first = await add();
      const second = await add({ name: 'Rust', pygments_language: 'Rust', url_template: 'https://play.rust-lang.org/?code={code}' });
      expectSuccess(await api.as('iago').delete(`${PLAYGROUNDS}/${first}`));
      const rust = { id: second, name: 'Rust', pygments_language: 'Rust', url_template: 'https://play.rust-lang.org/?code={code}' };
      for (const [who, queue] of queues) {
        expect(await eventsOf(who, queue.queue_id, 3)).toEqual([
          { type: 'realm_playgrounds', realm_playgrounds: [{ id: first, ...PYTHON }] },
          { type: 'realm_playgrounds', realm_playgrounds: [{ id: first, ...PYTHON }, rust] },
          { type: 'realm_playgrounds', realm_playgrounds: [rust] },
        ]);
      }
    });
  });
});
