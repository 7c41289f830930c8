import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** ≈ zerver/tests/test_message_fetch.py MessagesInNarrowTest: GET /messages/matches_narrow. */
describe('GET /messages/matches_narrow', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, sendToChannel } = personaHelpers(() => api);
  const send = (who: string, topic: string, content: string, to = 'Denmark') => sendToChannel(who, to, topic, content);
  const matches = async (who: string, msgIds: number[], narrow: unknown[]) =>
    expectSuccess(await api.as(who).get('/api/v1/messages/matches_narrow', { msg_ids: msgIds, narrow })).messages as Record<string, { match_content: string; match_subject: string }>;

  beforeEach(async () => {
    expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }, { name: 'Verona' }], principals: [id('iago'), id('hamlet')] }));
  });

  it('answers the ids that match, with the rendered content and the escaped topic', async () => {
    const a = await send('iago', 'plans <b>', 'hello **there**');
    const b = await send('iago', 'other', 'bye');
    const c = await send('iago', 'plans <b>', 'elsewhere', 'Verona');
    expect(await matches('hamlet', [a, b, c, 999999], [{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'plans <b>' }])).toEqual({
      [a]: { match_content: '<p>hello <strong>there</strong></p>', match_subject: 'plans &lt;b&gt;' },
    });
    expect(Object.keys(await matches('hamlet', [a, b, c], []))).toEqual([String(a), String(b), String(c)]);
    expect(Object.keys(await matches('hamlet', [a, b, c], [['stream', 'Verona']]))).toEqual([String(c)]);
  });

  it('only considers messages the caller received', async () => {
    const a = await send('iago', 'plans', 'hello');
    expect(await matches('cordelia', [a], [])).toEqual({});
    const dm = expectSuccess(await api.as('iago').post('/api/v1/messages', { type: 'direct', to: [id('hamlet')], content: 'psst' })).id as number;
    expect(Object.keys(await matches('hamlet', [dm], [['is', 'dm']]))).toEqual([String(dm)]);
    expect(await matches('cordelia', [dm], [])).toEqual({});
  });

  it('requires msg_ids and narrow, and refuses bad narrows', async () => {
    expectError(await api.as('hamlet').get('/api/v1/messages/matches_narrow', { narrow: [] }), "Missing 'msg_ids' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    expectError(await api.as('hamlet').get('/api/v1/messages/matches_narrow', { msg_ids: [1] }), "Missing 'narrow' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    expectError(await api.as('hamlet').get('/api/v1/messages/matches_narrow', { msg_ids: ['x'], narrow: [] }), 'msg_ids[0] is not an integer');
    const bad = await api.as('hamlet').get('/api/v1/messages/matches_narrow', { msg_ids: [1], narrow: [['bogus', 'x']] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_NARROW');
  });
});
