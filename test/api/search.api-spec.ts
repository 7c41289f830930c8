import { EVENT_STORE, LIVE_READ_MODELS, LOGGER, type LiveReadModels } from '@app/application';
import { ProjectionRebuilder, Projector } from '@app/projections';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * The search operator (≈ zerver/tests/test_message_fetch.py GetOldMessagesTest's search tests):
 * words stemmed, case- and accent-insensitive, stop words ignored, all required, quoted phrases,
 * topics, highlighting in match_content / match_subject, access, and the index after edits,
 * moves and deletes.
 */
const MESSAGES = '/api/v1/messages';
type Message = { id: number; match_content?: string; match_subject?: string; content: string };

describe('search', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, send, createChannel } = personaHelpers(() => api);
  const toChannel = (who: string, to: string, topic: string, content: string) => send(who, { type: 'stream', to, topic, content });
  const search = (operand: string, more: unknown[] = []) => [...more, { operator: 'search', operand }];
  const fetch = async (who: string, narrow: unknown[]): Promise<Message[]> =>
    expectSuccess(await api.as(who).get(MESSAGES, { anchor: 'newest', num_before: 100, num_after: 0, narrow })).messages;
  const found = async (who: string, narrow: unknown[]) => (await fetch(who, narrow)).map((m) => m.id);

  describe('words', () => {
    const m: Record<string, number> = {};
    beforeEach(async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia'), id('iago')] });
      m.running = await toChannel('hamlet', 'Denmark', 'status', 'The build is RUNNING late');
      m.cafe = await toChannel('cordelia', 'Denmark', 'Café plans', 'Lunch at noon?');
      m.concat = await toChannel('iago', 'Denmark', 'code', 'concatenate the cats');
      m.phrase = await toChannel('hamlet', 'Denmark', 'status', 'late again, the build is running');
    });

    it.each<[string, string, string[]]>([
      ['a word finds its other forms (stemming)', 'run', ['running', 'phrase']],
      ['case- and accent-insensitively', 'CAFE', ['cafe']],
      ['in the topic as well as the content', 'plans', ['cafe']],
      ['every word is required, wherever it is', 'cafe noon', ['cafe']],
      ['words, not substrings', 'cat', ['concat']],
      ['nothing else', 'concaten build', []],
      ['stop words are ignored beside other words', 'the lunch', ['cafe']],
      ['a quoted phrase matches its words in order', '"running late"', ['running']],
      ['a phrase is stemmed too, and stop words count inside it', '"is runs"', ['running', 'phrase']],
      ['a phrase whose words are apart does not match', '"build late"', []],
    ])('%s (%s)', async (_name, operand, expected) => {
      expect(await found('cordelia', search(operand))).toEqual(expected.map((k) => m[k]));
    });

    it('finds nothing for stop words only, as Zulip (an empty query matches nothing)', async () => {
      expect(await found('cordelia', search('the is'))).toEqual([]);
    });

    it('joins several search operands and ignores their negation, as Zulip does', async () => {
      expect(await found('cordelia', [{ operator: 'search', operand: 'build' }, { operator: 'search', operand: 'late', negated: true }])).toEqual([m.running, m.phrase]);
    });

    it('combines with the other operators', async () => {
      expect(await found('cordelia', search('build', [{ operator: 'sender', operand: 'hamlet@acme.test' }, { operator: 'topic', operand: 'status' }]))).toEqual([m.running, m.phrase]);
      expect(await found('cordelia', search('build', [{ operator: 'id', operand: m.phrase }]))).toEqual([m.phrase]);
      expect(await found('cordelia', search('run', [{ operator: 'channel', operand: 'Denmark' }, { operator: 'sender', operand: 'iago@acme.test' }]))).toEqual([]);
      expectSuccess(await api.as('cordelia').post('/api/v1/messages/flags', { messages: [m.phrase], op: 'add', flag: 'starred' }));
      expect(await found('cordelia', search('build', [{ operator: 'is', operand: 'starred' }]))).toEqual([m.phrase]);
      expect(await found('cordelia', search('build', [{ operator: 'is', operand: 'starred', negated: true }]))).toEqual([m.running]);
      // Ranges around an anchor: the match before the newest, and the one after the oldest.
      const before = expectSuccess(await api.as('cordelia').get(MESSAGES, { anchor: m.phrase, include_anchor: false, num_before: 1, num_after: 0, narrow: search('build') }));
      expect(before.messages.map((x: Message) => x.id)).toEqual([m.running]);
      expect(before).toMatchObject({ found_oldest: false });
    });

    it('refuses a blank operand and changes nothing', async () => {
      expectError(await api.as('cordelia').get(MESSAGES, { anchor: 'newest', num_before: 1, num_after: 0, narrow: search('  ') }), 'operand cannot be blank.');
    });
  });

  describe('highlighting', () => {
    it('wraps the words that matched in match_content and match_subject, never inside a tag', async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
      const a = await toChannel('hamlet', 'Denmark', 'Running <fast>', '**Runs** [late](https://run.test/run) & running');
      const [message] = await fetch('cordelia', search('run'));
      expect(message.id).toBe(a);
      expect(message.match_subject).toBe('<span class="highlight">Running</span> &lt;fast&gt;');
      expect(message.match_content).toContain('<strong><span class="highlight">Runs</span></strong>');
      expect(message.match_content).toContain('href="https://run.test/run"');
      expect(message.match_content).toContain('<span class="highlight">running</span>');
      expect(message.content).not.toContain('highlight'); // the content itself is unchanged
    });

    it('adds match fields to every result of a search, and to no other fetch', async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
      await toChannel('hamlet', 'Denmark', 'plain topic', 'pizza');
      const dm = await send('hamlet', { type: 'direct', to: [id('cordelia')], content: 'more pizza' });
      const results = await fetch('cordelia', search('pizza'));
      expect(results.map((r) => [r.match_subject, r.match_content])).toEqual([
        ['plain topic', '<p><span class="highlight">pizza</span></p>'],
        ['', '<p>more <span class="highlight">pizza</span></p>'],
      ]);
      expect(results[1].id).toBe(dm);
      expect((await fetch('cordelia', []))[0]).not.toHaveProperty('match_content');
    });

    it('highlights in GET /messages/matches_narrow too', async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia')] });
      const a = await toChannel('hamlet', 'Denmark', 'deploys', 'deployed at noon');
      const b = await toChannel('hamlet', 'Denmark', 'other', 'nothing');
      const body = expectSuccess(await api.as('cordelia').get('/api/v1/messages/matches_narrow', { msg_ids: [a, b], narrow: search('deploy') }));
      expect(body.messages).toEqual({ [a]: { match_content: '<p><span class="highlight">deployed</span> at noon</p>', match_subject: '<span class="highlight">deploys</span>' } });
    });
  });

  describe('access', () => {
    it('never finds a message of a private channel the searcher is not in, nor a direct message between others', async () => {
      await createChannel('iago', 'secret', { invite_only: true, principals: [id('iago'), id('cordelia')] });
      const hidden = await toChannel('iago', 'secret', 'plans', 'zanzibar');
      const dm = await send('iago', { type: 'direct', to: [id('cordelia')], content: 'zanzibar too' });
      expect(await found('cordelia', search('zanzibar'))).toEqual([hidden, dm]);
      expect(await found('hamlet', search('zanzibar'))).toEqual([]);
      expect(await found('desdemona', search('zanzibar'))).toEqual([]); // administrators are not exempt
      const narrowed = await api.as('hamlet').get(MESSAGES, { anchor: 'newest', num_before: 10, num_after: 0, narrow: search('zanzibar', [{ operator: 'channel', operand: 'secret' }]) });
      expect(narrowed.body.messages ?? []).toEqual([]);
      expect(await found('hamlet', search('zanzibar', [{ operator: 'dm', operand: 'cordelia@acme.test' }]))).toEqual([]);
    });

    it('finds the history of a public channel the searcher has not joined only when narrowed to it, as Zulip', async () => {
      await createChannel('iago', 'Elsinore', { principals: [id('iago')] });
      const old = await toChannel('iago', 'Elsinore', 'ghosts', 'a spectre walks');
      expect(await found('hamlet', search('spectre'))).toEqual([]);
      expect(await found('hamlet', search('spectre', [{ operator: 'channel', operand: 'Elsinore' }]))).toEqual([old]);
    });
  });

  describe('the index follows every change', () => {
    beforeEach(async () => {
      await createChannel('hamlet', 'Denmark', { principals: [id('hamlet'), id('cordelia'), id('iago')] });
      await createChannel('iago', 'Verona', { principals: [id('hamlet'), id('cordelia'), id('iago')] });
    });

    it('after an edit of the content', async () => {
      const a = await toChannel('hamlet', 'Denmark', 'status', 'apples');
      expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${a}`, { content: 'oranges' }));
      expect(await found('cordelia', search('apple'))).toEqual([]);
      expect(await found('cordelia', search('orange'))).toEqual([a]);
    });

    it('after a move to another topic and channel', async () => {
      const a = await toChannel('hamlet', 'Denmark', 'oldtopic', 'kiwis');
      expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${a}`, { topic: 'newtopic' }));
      expect(await found('cordelia', search('oldtopic'))).not.toContain(a); // (the move's notice names it)
      expect(await found('cordelia', search('newtopic kiwi'))).toEqual([a]);
      const verona = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'Verona' })).stream_id;
      expectSuccess(await api.as('iago').patch(`${MESSAGES}/${a}`, { stream_id: verona, topic: 'moved' }));
      expect(await found('cordelia', search('kiwi', [{ operator: 'channel', operand: 'Verona' }]))).toEqual([a]);
      expect(await found('cordelia', search('kiwi', [{ operator: 'channel', operand: 'Denmark' }]))).toEqual([]);
      const [message] = await fetch('cordelia', search('moved'));
      expect(message.match_subject).toBe('<span class="highlight">moved</span>');
    });

    it('after a blue/green rebuild of the per-user message index', async () => {
      const a = await toChannel('hamlet', 'Denmark', 'status', 'grapes');
      expectSuccess(await api.as('hamlet').patch(`${MESSAGES}/${a}`, { content: 'melons' }));
      const live = api.app.get<LiveReadModels>(LIVE_READ_MODELS);
      const result = await new ProjectionRebuilder(api.app.get(EVENT_STORE), live, api.app.get(Projector), api.app.get(LOGGER)).rebuild('user_messages');
      expect(result).toMatchObject({ phase: 'done', error: null });
      expect(await found('cordelia', search('melon'))).toEqual([a]);
      expect(await found('cordelia', search('grape'))).toEqual([]);
      const b = await toChannel('hamlet', 'Denmark', 'status', 'more melons');
      expect(await found('cordelia', search('melon'))).toEqual([a, b]);
    });

    it('after a delete', async () => {
      const a = await toChannel('hamlet', 'Denmark', 'status', 'bananas');
      expectSuccess(await api.as('iago').delete(`${MESSAGES}/${a}`));
      expect(await found('cordelia', search('banana'))).toEqual([]);
      expect(await found('iago', search('banana', [{ operator: 'channel', operand: 'Denmark' }]))).toEqual([]);
    });
  });
});
