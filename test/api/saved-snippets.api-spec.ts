import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** ≈ zerver/tests/test_saved_snippets.py: GET/POST /saved_snippets, PATCH/DELETE /saved_snippets/{id}. */
const SNIPPETS = '/api/v1/saved_snippets';

describe('saved snippets', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const list = async (who = 'hamlet') => expectSuccess(await api.as(who).get(SNIPPETS)).saved_snippets;
  const create = async (title = 'Welcome message', content = '**Welcome** to the organization.', who = 'hamlet'): Promise<number> =>
    expectSuccess(await api.as(who).post(SNIPPETS, { title, content })).saved_snippet_id;
  const { refused: expectRefused } = personaHelpers(() => api);

  describe('POST /saved_snippets', () => {
    it('creates a snippet and lists it with its creation time', async () => {
      expect(await list()).toEqual([]);
      api.clock.set('2026-03-04T05:06:07.800Z');
      const savedSnippetId = await create();
      expect(await list()).toEqual([
        { id: savedSnippetId, title: 'Welcome message', content: '**Welcome** to the organization.', date_created: Math.floor(Date.parse('2026-03-04T05:06:07.800Z') / 1000) },
      ]);
      expect(await list('cordelia')).toEqual([]);
    });

    it('takes the parameters as zulip-js sends them (multipart), stripped', async () => {
      const body = expectSuccess(await api.as('hamlet').postMultipart(SNIPPETS, { title: '  Hi \n', content: '\n Hello there  ' }));
      expect(body.ignored_parameters_unsupported).toBeUndefined();
      expect(await list()).toEqual([expect.objectContaining({ id: body.saved_snippet_id, title: 'Hi', content: 'Hello there' })]);
    });

    it('lists snippets oldest first', async () => {
      const first = await create('one');
      const second = await create('two');
      expect((await list()).map((s: { id: number }) => s.id)).toEqual([first, second]);
    });

    it('refuses bad titles and contents, storing nothing', async () => {
      await expectRefused(await api.as('hamlet').post(SNIPPETS, { title: 'A'.repeat(120), content: 'x' }), 'title is too long (limit: 60 characters)', { code: 'BAD_REQUEST' });
      await expectRefused(await api.as('hamlet').post(SNIPPETS, { title: ' ', content: 'x' }), 'title cannot be blank');
      await expectRefused(await api.as('hamlet').post(SNIPPETS, { title: 'x', content: '\n\t' }), 'content cannot be blank');
      await expectRefused(await api.as('hamlet').post(SNIPPETS, { title: 'x', content: 'c'.repeat(10_001) }), 'content is too long (limit: 10000 characters)');
      await expectRefused(await api.as('hamlet').post(SNIPPETS, { content: 'x' }), "Missing 'title' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      await expectRefused(await api.as('hamlet').post(SNIPPETS, { title: 'x' }), "Missing 'content' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      expect(await list()).toEqual([]);
    });

    it('accepts a title of exactly 60 characters after stripping', async () => {
      await create(`  ${'🙂'.repeat(60)}  `);
      expect((await list())[0].title).toBe('🙂'.repeat(60));
    });
  });

  describe('PATCH /saved_snippets/{saved_snippet_id}', () => {
    it('changes the title, then the content, with the parameters in the query string as zulip-js sends them', async () => {
      const savedSnippetId = await create();
      expectSuccess(await api.as('hamlet').patch(`${SNIPPETS}/${savedSnippetId}`).query({ title: 'New title' }));
      expectSuccess(await api.as('hamlet').patch(`${SNIPPETS}/${savedSnippetId}`, { content: 'New content' }));
      expect(await list()).toEqual([expect.objectContaining({ id: savedSnippetId, title: 'New title', content: 'New content' })]);
    });

    it('succeeds without changing anything when no value is given', async () => {
      const savedSnippetId = await create();
      await api.markEvents();
      expectSuccess(await api.as('hamlet').patch(`${SNIPPETS}/${savedSnippetId}`));
      expect(await api.newEvents()).toEqual([]);
    });

    it('answers 404 "Saved snippet does not exist." for unknown snippets and other users\' snippets', async () => {
      const savedSnippetId = await create();
      await api.markEvents();
      await expectRefused(await api.as('hamlet').patch(`${SNIPPETS}/${savedSnippetId + 1000}`, { content: 'New content' }), 'Saved snippet does not exist.', { status: 404, code: 'BAD_REQUEST' });
      await expectRefused(await api.as('cordelia').patch(`${SNIPPETS}/${savedSnippetId}`, { title: 'Mine now' }), 'Saved snippet does not exist.', { status: 404 });
      expect((await list())[0].title).toBe('Welcome message');
    });

    it('refuses bad values, changing nothing', async () => {
      const savedSnippetId = await create();
      await api.markEvents();
      await expectRefused(await api.as('hamlet').patch(`${SNIPPETS}/${savedSnippetId}`, { title: 'A'.repeat(61) }), 'title is too long (limit: 60 characters)');
      await expectRefused(await api.as('hamlet').patch(`${SNIPPETS}/${savedSnippetId}`, { content: '  ' }), 'content cannot be blank');
      expect((await list())[0]).toMatchObject({ title: 'Welcome message', content: '**Welcome** to the organization.' });
    });
  });

  describe('DELETE /saved_snippets/{saved_snippet_id}', () => {
    it('deletes a snippet', async () => {
      const savedSnippetId = await create();
      expectSuccess(await api.as('hamlet').delete(`${SNIPPETS}/${savedSnippetId}`));
      expect(await list()).toEqual([]);
    });

    it('answers 404 for unknown, deleted and other users\' snippets, deleting nothing', async () => {
      const savedSnippetId = await create();
      await api.markEvents();
      await expectRefused(await api.as('hamlet').delete(`${SNIPPETS}/10000`), 'Saved snippet does not exist.', { status: 404, code: 'BAD_REQUEST' });
      await expectRefused(await api.as('cordelia').delete(`${SNIPPETS}/${savedSnippetId}`), 'Saved snippet does not exist.', { status: 404 });
      expect(await list()).toHaveLength(1);
      expectSuccess(await api.as('hamlet').delete(`${SNIPPETS}/${savedSnippetId}`));
      await api.markEvents();
      await expectRefused(await api.as('hamlet').delete(`${SNIPPETS}/${savedSnippetId}`), 'Saved snippet does not exist.', { status: 404 });
    });
  });
});
