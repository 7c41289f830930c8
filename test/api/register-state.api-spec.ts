import { ApiTestClient, expectSuccess } from '../support';

/** POST /register's initial state for the personal-data areas, under Zulip's keys. */
describe('POST /register initial state', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['hamlet', 'cordelia', 'iago'] })));
  afterAll(() => api.close());

  it('includes every section by default, reflecting the user\'s own data', async () => {
    expectSuccess(await api.as('hamlet').post(`/api/v1/users/me/muted_users/${api.user('cordelia').userId}`));
    expectSuccess(await api.as('hamlet').post('/api/v1/saved_snippets', { title: 'Greeting', content: 'Hello!' }));
    expectSuccess(await api.as('hamlet').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'half a thought' }] }));
    const body = expectSuccess(await api.as('hamlet').post('/api/v1/register'));
    expect(body.muted_users).toEqual([{ id: api.user('cordelia').userId, timestamp: expect.any(Number) }]);
    expect(body.saved_snippets).toEqual([expect.objectContaining({ title: 'Greeting', content: 'Hello!' })]);
    expect(body.drafts).toEqual([expect.objectContaining({ content: 'half a thought', type: '' })]);
    expect(body.user_settings).toMatchObject({ enable_drafts_synchronization: true, twenty_four_hour_time: expect.any(Boolean) });
    expect(typeof body.user_status).toBe('object');
    // Another user's register shows none of hamlet's personal data.
    const other = expectSuccess(await api.as('cordelia').post('/api/v1/register'));
    expect(other).toMatchObject({ muted_users: [], saved_snippets: [], drafts: [] });
  });

  it('fetches only the requested types', async () => {
    const body = expectSuccess(await api.as('hamlet').post('/api/v1/register', { fetch_event_types: ['muted_users'] }));
    expect(body).toHaveProperty('muted_users');
    expect(body).not.toHaveProperty('drafts');
    expect(body).not.toHaveProperty('user_settings');
    const byEventTypes = expectSuccess(await api.as('hamlet').post('/api/v1/register', { event_types: ['drafts'] }));
    expect(Object.keys(byEventTypes)).toContain('drafts');
    expect(byEventTypes).not.toHaveProperty('muted_users');
  });
});
