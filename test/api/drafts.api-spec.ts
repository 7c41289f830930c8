import { userSettingsStream } from '@app/domain';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** ≈ zerver/tests/test_drafts.py: GET/POST /drafts, PATCH/DELETE /drafts/{draft_id}. */
const DRAFTS = '/api/v1/drafts';

describe('drafts', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, createChannel, refused: expectRefused } = personaHelpers(() => api);
  const channel = (name: string, options: { private?: boolean; by?: string } = {}): Promise<number> =>
    createChannel(options.by ?? 'hamlet', name, { invite_only: options.private === true });
  const list = async (who = 'hamlet') => expectSuccess(await api.as(who).get(DRAFTS));
  const create = async (drafts: object[], who = 'hamlet'): Promise<number[]> => expectSuccess(await api.as(who).post(DRAFTS, { drafts })).ids;
  const refusedCreate = async (drafts: object[], msg: string) => {
    await api.markEvents();
    await expectRefused(await api.as('hamlet').post(DRAFTS, { drafts }), msg);
  };
  /** Turns the user's enable_drafts_synchronization off on the settings stream (the settings area's event). */
  const disableSynchronization = (who: string) =>
    api.givenEvents(userSettingsStream(id(who)), [{
      type: 'UserSettingChanged',
      data: {
        realmId: api.realmId, userId: id(who), property: 'enable_drafts_synchronization', oldValue: true, newValue: false,
        actorId: id(who), editedBySelf: true, at: api.clock.now().toISOString(),
      },
    }]);

  describe('POST /drafts', () => {
    it('creates a channel draft and lists it exactly as sent', async () => {
      const general = await channel('general');
      const draft = { type: 'stream', to: [general], topic: 'sync drafts', content: "Let's add backend support for syncing drafts.", timestamp: 1595479019 };
      const [draftId] = await create([draft]);
      expect(await list()).toEqual({ result: 'success', msg: '', count: 1, drafts: [{ id: draftId, ...draft }] });
    });

    it('takes the list as zulip-js sends it (multipart)', async () => {
      const body = expectSuccess(await api.as('hamlet').postMultipart(DRAFTS, { drafts: [{ type: '', to: [], topic: '', content: 'x', timestamp: 1 }] }));
      expect(body.ids).toHaveLength(1);
      expect(body.ignored_parameters_unsupported).toBeUndefined();
    });

    it('answers the ids in request order and lists the most recently edited first', async () => {
      const general = await channel('general');
      const ids = await create([
        { type: 'stream', to: [general], topic: 'a', content: 'first', timestamp: 1595479019 },
        { type: 'private', to: [id('cordelia')], topic: '', content: 'third', timestamp: 1595479021 },
        { type: 'private', to: [id('cordelia'), id('iago')], topic: '', content: 'second', timestamp: 1595479020 },
      ]);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      const { count, drafts } = await list();
      expect(count).toBe(3);
      expect(drafts.map((d: { content: string }) => d.content)).toEqual(['third', 'second', 'first']);
      expect(drafts.map((d: { id: number }) => d.id)).toEqual([ids[1], ids[2], ids[0]]);
    });

    it('stores direct drafts with the other participants, ignoring the topic', async () => {
      await create([{ type: 'private', to: [id('iago'), id('cordelia'), id('hamlet')], topic: 'This topic should be ignored.', content: 'Hi', timestamp: 5 }]);
      expect((await list()).drafts[0]).toMatchObject({ type: 'private', to: [id('iago'), id('cordelia')].sort((a, b) => a - b), topic: '' });
    });

    it('makes direct drafts without recipients and unaddressed drafts plain', async () => {
      await create([
        { type: 'private', to: [], topic: 'sync drafts', content: 'A', timestamp: 2 },
        { type: '', to: [id('iago')], topic: 'sync drafts', content: 'B', timestamp: 1 },
      ]);
      expect((await list()).drafts).toEqual([
        expect.objectContaining({ type: '', to: [], topic: '', content: 'A' }),
        expect.objectContaining({ type: '', to: [], topic: '', content: 'B' }),
      ]);
    });

    it('fills in the server\'s time when the timestamp is missing', async () => {
      api.clock.set('2026-05-06T07:08:09.500Z');
      await create([{ type: '', to: [], topic: '', content: 'now' }]);
      expect((await list()).drafts[0].timestamp).toBe(Math.floor(Date.parse('2026-05-06T07:08:09.500Z') / 1000));
    });

    it('truncates a long topic and strips the content', async () => {
      const general = await channel('general');
      await create([{ type: 'stream', to: [general], topic: 't'.repeat(61), content: '  \n body \n\n', timestamp: 1 }]);
      expect((await list()).drafts[0]).toMatchObject({ topic: `${'t'.repeat(57)}...`, content: 'body' });
    });

    it('refuses bad drafts with Zulip\'s messages and stores none of the batch', async () => {
      const general = await channel('general');
      const secret = await channel('secret', { private: true, by: 'cordelia' });
      const ok = { type: '', to: [], topic: '', content: 'fine', timestamp: 1 };
      await refusedCreate([ok, { type: 'stream', to: [], topic: 'sync drafts', content: 'x', timestamp: -10.1 }], 'Timestamp must not be negative.');
      await refusedCreate([ok, { type: 'stream', to: [], topic: 'x', content: 'x', timestamp: 1 }], 'Must specify exactly 1 channel ID for channel messages');
      await refusedCreate([{ type: 'stream', to: [general, general], topic: 'x', content: 'x' }], 'Must specify exactly 1 channel ID for channel messages');
      await refusedCreate([ok, { type: 'stream', to: [secret], topic: 'x', content: 'x' }], 'Invalid channel ID');
      await refusedCreate([{ type: 'stream', to: [99999999], topic: 'x', content: 'x' }], 'Invalid channel ID');
      await refusedCreate([{ type: 'private', to: [99999999], topic: '', content: 'x' }], 'Invalid user ID 99999999');
      await refusedCreate([{ type: '', to: [], topic: 'sync drafts.', content: 'Some regular \u0000 content here' }], 'Message must not contain null bytes');
      await refusedCreate([{ type: 'stream', to: [general], topic: 'thinking about \u0000', content: 'x' }], 'Topic must not contain null bytes');
      await refusedCreate([{ type: '', to: [], topic: '', content: ' \n ' }], 'drafts[0]["content"] cannot be blank');
      await refusedCreate([ok, { type: 'channel', to: [], topic: '', content: 'x' }], 'Invalid drafts[1]["type"]');
      await refusedCreate([{ type: '', to: ['a'], topic: '', content: 'x' }], 'drafts[0]["to"][0] is not an integer');
      await refusedCreate([{ type: '', to: [], content: 'x' }], 'drafts[0]["topic"] field is missing');
      await refusedCreate([{ ...ok, id: 3 }], 'Argument "id" at drafts[0] is unexpected');
      await refusedCreate([{ ...ok, timestamp: 'soon' }], 'drafts[0]["timestamp"]["int"] is not an integer');
      await expectRefused(await api.as('hamlet').post(DRAFTS, { drafts: '[{' }), 'drafts is not valid JSON');
      await expectRefused(await api.as('hamlet').post(DRAFTS, {}), "Missing 'drafts' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      expect((await list()).count).toBe(0);
    });

    it('refuses a draft to a deactivated user', async () => {
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('cordelia')}`));
      await refusedCreate([{ type: 'private', to: [id('cordelia')], topic: '', content: 'x' }], "'cordelia@acme.test' is no longer using Zulip.");
    });

    it('creates nothing for an empty list', async () => {
      await api.markEvents();
      expect(expectSuccess(await api.as('hamlet').post(DRAFTS, { drafts: [] })).ids).toEqual([]);
      expect(await api.newEvents()).toEqual([]);
    });

    it('never loses a draft when one user creates many at once', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => api.as('hamlet').post(DRAFTS, { drafts: [{ type: '', to: [], topic: '', content: `draft ${i}`, timestamp: i }] })),
      );
      const ids = responses.map((r) => expectSuccess(r).ids[0] as number);
      expect(new Set(ids).size).toBe(20);
      const { count, drafts } = await list();
      expect(count).toBe(20);
      expect(drafts.map((d: { id: number }) => d.id).sort((a: number, b: number) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    });
  });

  describe('PATCH /drafts/{draft_id}', () => {
    it('replaces a draft, with the parameters in the query string as zulip-js sends them', async () => {
      const [a, b] = [await channel('a'), await channel('b')];
      const [draftId] = await create([{ type: 'stream', to: [a], topic: 'drafts', content: 'The API should be good', timestamp: 1595505700 }]);
      const draft = { type: 'stream', to: [b], topic: 'designing drafts', content: 'The API needs to be structured yet simple to use.', timestamp: 1595505800 };
      const body = expectSuccess(await api.as('hamlet').patch(`${DRAFTS}/${draftId}`).query({ draft: JSON.stringify(draft) }));
      expect(body.ignored_parameters_unsupported).toBeUndefined();
      expect((await list()).drafts).toEqual([{ id: draftId, ...draft }]);
    });

    it('takes the draft in a form body too', async () => {
      const [draftId] = await create([{ type: '', to: [], topic: '', content: 'v1', timestamp: 1 }]);
      expectSuccess(await api.as('hamlet').patch(`${DRAFTS}/${draftId}`, { draft: { type: '', to: [], topic: '', content: 'v2', timestamp: 2 } }));
      expect((await list()).drafts[0].content).toBe('v2');
    });

    it('answers 404 "Draft does not exist" for unknown drafts and other users\' drafts, changing nothing', async () => {
      const draft = { type: '', to: [], topic: '', content: 'The API should be good', timestamp: 1595505700 };
      const [draftId] = await create([draft]);
      await api.markEvents();
      await expectRefused(await api.as('hamlet').patch(`${DRAFTS}/999999999`, { draft }), 'Draft does not exist', { status: 404, code: 'BAD_REQUEST' });
      await expectRefused(await api.as('cordelia').patch(`${DRAFTS}/${draftId}`, { draft: { ...draft, content: '???' } }), 'Draft does not exist', { status: 404 });
      expect((await list()).drafts).toEqual([{ id: draftId, ...draft }]);
    });

    it('validates the new draft and keeps the old one when it is bad', async () => {
      const [draftId] = await create([{ type: '', to: [], topic: '', content: 'kept', timestamp: 1 }]);
      await api.markEvents();
      await expectRefused(await api.as('hamlet').patch(`${DRAFTS}/${draftId}`, { draft: { type: 'stream', to: [99999], topic: 'x', content: 'y' } }), 'Invalid channel ID');
      await expectRefused(await api.as('hamlet').patch(`${DRAFTS}/${draftId}`, { draft: {} }), 'draft["type"] field is missing');
      await expectRefused(await api.as('hamlet').patch(`${DRAFTS}/${draftId}`), "Missing 'draft' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      expect((await list()).drafts[0].content).toBe('kept');
    });

    it('treats a draft id that is not a number as an unknown route', async () =>
      expectError(await api.as('hamlet').patch(`${DRAFTS}/abc`, { draft: { type: '', to: [], topic: '', content: 'x' } }), 'Not Found', { status: 404 }));
  });

  describe('DELETE /drafts/{draft_id}', () => {
    it('deletes a draft', async () => {
      const [draftId, other] = await create([{ type: '', to: [], topic: '', content: 'a', timestamp: 1 }, { type: '', to: [], topic: '', content: 'b', timestamp: 2 }]);
      expectSuccess(await api.as('hamlet').delete(`${DRAFTS}/${draftId}`));
      expect((await list()).drafts.map((d: { id: number }) => d.id)).toEqual([other]);
    });

    it('answers 404 for unknown drafts, deleted drafts and other users\' drafts, deleting nothing', async () => {
      const [draftId] = await create([{ type: '', to: [], topic: '', content: 'a', timestamp: 1 }]);
      await api.markEvents();
      await expectRefused(await api.as('hamlet').delete(`${DRAFTS}/9999999999`), 'Draft does not exist', { status: 404, code: 'BAD_REQUEST' });
      await expectRefused(await api.as('cordelia').delete(`${DRAFTS}/${draftId}`), 'Draft does not exist', { status: 404 });
      expect((await list()).count).toBe(1);
      expectSuccess(await api.as('hamlet').delete(`${DRAFTS}/${draftId}`));
      await api.markEvents();
      await expectRefused(await api.as('hamlet').delete(`${DRAFTS}/${draftId}`), 'Draft does not exist', { status: 404 });
    });
  });

  describe('while enable_drafts_synchronization is off', () => {
    it('refuses every draft endpoint before looking at the parameters, changing nothing', async () => {
      const [draftId] = await create([{ type: '', to: [], topic: '', content: 'kept', timestamp: 1 }]);
      await disableSynchronization('hamlet');
      const msg = 'User has disabled synchronizing drafts.';
      await expectRefused(await api.as('hamlet').get(DRAFTS), msg, { code: 'BAD_REQUEST' });
      await expectRefused(await api.as('hamlet').post(DRAFTS, { drafts: '[]' }), msg);
      await expectRefused(await api.as('hamlet').post(DRAFTS, { drafts: [{ type: '', to: [], topic: '', content: 'x' }] }), msg);
      await expectRefused(await api.as('hamlet').patch(`${DRAFTS}/${draftId}`, { draft: {} }), msg);
      await expectRefused(await api.as('hamlet').delete(`${DRAFTS}/${draftId}`), msg);
      await expectRefused(await api.as('hamlet').delete(`${DRAFTS}/999999`), msg);
      // Other users are not affected.
      expect((await list('cordelia')).count).toBe(0);
    });

    it('loses the drafts on the server when turned off through PATCH /settings (do_change_user_setting)', async () => {
      await create([{ type: '', to: [], topic: '', content: 'gone', timestamp: 1 }]);
      await create([{ type: '', to: [], topic: '', content: 'kept', timestamp: 1 }], 'cordelia');
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { enable_drafts_synchronization: false }));
      expectError(await api.as('hamlet').get(DRAFTS), 'User has disabled synchronizing drafts.');
      expectSuccess(await api.as('hamlet').patch('/api/v1/settings', { enable_drafts_synchronization: true }));
      expect(await list()).toMatchObject({ count: 0, drafts: [] });
      expect((await list('cordelia')).count).toBe(1);
    });
  });
});
