import { CustomProfileFieldQueries } from '@app/application';
import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** Administrators setting another user's custom profile data: `profile_data` of PATCH /users/{user_id} (update_user_backend). */
describe('PATCH /users/{user_id} profile_data', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const FIELDS = '/api/v1/realm/profile_fields';
  const create = async (params: Record<string, unknown>) => expectSuccess(await api.as('iago').post(FIELDS, params)).id as number;
  const profileOf = (name: string) => api.app.get(CustomProfileFieldQueries).profileDataOf(api.realmId, api.user(name).userId);
  const patchUser = (who: string, target: string, body: Record<string, unknown>) => api.as(who).patch(`/api/v1/users/${api.user(target).userId}`, body);

  it("sets another user's values, fields not editable by users included", async () => {
    const phone = await create({ name: 'Phone', field_type: 1 });
    const employee = await create({ name: 'Employee ID', field_type: 1, editable_by_user: false });
    const mentor = await create({ name: 'Mentor', field_type: 6 });
    expectSuccess(await patchUser('iago', 'hamlet', { profile_data: [{ id: phone, value: '555' }, { id: employee, value: 'E1' }, { id: mentor, value: [api.user('iago').userId] }] }));
    expect(await profileOf('hamlet')).toEqual({
      [phone]: { value: '555', rendered_value: '<p>555</p>' },
      [employee]: { value: 'E1', rendered_value: '<p>E1</p>' },
      [mentor]: { value: `[${api.user('iago').userId}]` },
    });
  });

  it('removes the values given as null or an empty string, with the rest set', async () => {
    const phone = await create({ name: 'Phone', field_type: 1 });
    const city = await create({ name: 'City', field_type: 1 });
    expectSuccess(await patchUser('iago', 'hamlet', { profile_data: [{ id: phone, value: '555' }, { id: city, value: 'Elsinore' }] }));
    expectSuccess(await patchUser('iago', 'hamlet', { profile_data: [{ id: phone, value: null }, { id: city, value: '' }] }));
    expect(await profileOf('hamlet')).toEqual({});
    expectSuccess(await patchUser('iago', 'hamlet', { profile_data: [{ id: phone, value: '556' }, { id: city, value: null }] }));
    expect(await profileOf('hamlet')).toEqual({ [phone]: { value: '556', rendered_value: '<p>556</p>' } });
  });

  it("checks values with Zulip's messages", async () => {
    const birthday = await create({ name: 'Birthday', field_type: 4 });
    expectError(await patchUser('iago', 'hamlet', { profile_data: [{ id: birthday, value: 'soon' }] }), 'Birthday is not a date');
    expectError(await patchUser('iago', 'hamlet', { profile_data: [{ id: 1234, value: '12' }] }), 'Field id 1234 not found.');
    expectError(await patchUser('iago', 'hamlet', { profile_data: '[{"id": 1}]' }), 'profile_data[0]["value"] field is missing');
    expectError(await patchUser('iago', 'hamlet', { profile_data: [{ id: birthday, value: 5 }] }), expect.stringContaining('profile_data[0]["value"]') as unknown as string);
    expect(await profileOf('hamlet')).toEqual({});
  });

  it('is for administrators only', async () => {
    const phone = await create({ name: 'Phone', field_type: 1 });
    expectError(await patchUser('hamlet', 'cordelia', { profile_data: [{ id: phone, value: '555' }] }), 'Must be an organization administrator');
    expect(await profileOf('cordelia')).toEqual({});
  });
});

/** get_users_backend / get_members_backend with include_custom_profile_fields (get_users_for_api). */
describe('GET /users include_custom_profile_fields', () => {
  let api: ApiTestClient;
  beforeAll(async () => (api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia'] })));
  afterAll(() => api.close());

  const { id } = personaHelpers(() => api);

  it("sends every human's profile_data ({} without values; bots none) only when asked, for the list and for one user", async () => {
    const phone = expectSuccess(await api.as('iago').post('/api/v1/realm/profile_fields', { name: 'Phone', field_type: 1 })).id as number;
    const mentor = expectSuccess(await api.as('iago').post('/api/v1/realm/profile_fields', { name: 'Mentor', field_type: 6 })).id as number;
    expectSuccess(await api.as('iago').patch(`/api/v1/users/${id('hamlet')}`, { profile_data: [{ id: phone, value: '555' }, { id: mentor, value: [id('iago')] }] }));
    expectSuccess(await api.as('iago').post('/api/v1/bots', { full_name: 'Helper', short_name: 'helper' }));
    const hamletData = { [phone]: { value: '555', rendered_value: '<p>555</p>' }, [mentor]: { value: `[${id('iago')}]` } };

    const { members } = expectSuccess(await api.as('cordelia').get('/api/v1/users', { include_custom_profile_fields: true }));
    const byName = new Map((members as { full_name: string; profile_data?: unknown; is_bot: boolean }[]).map((m) => [m.full_name, m]));
    expect(byName.get('King Hamlet')!.profile_data).toEqual(hamletData);
    expect(byName.get('Cordelia Lear')!.profile_data).toEqual({});
    expect(byName.get('Helper')).not.toHaveProperty('profile_data');

    expect(expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}`, { include_custom_profile_fields: true })).user.profile_data).toEqual(hamletData);
    expect(expectSuccess(await api.as('cordelia').get('/api/v1/users/hamlet@acme.test', { include_custom_profile_fields: true })).user.profile_data).toEqual(hamletData);

    for (const params of [{}, { include_custom_profile_fields: false }]) {
      for (const m of expectSuccess(await api.as('cordelia').get('/api/v1/users', params)).members) expect(m).not.toHaveProperty('profile_data');
      expect(expectSuccess(await api.as('cordelia').get(`/api/v1/users/${id('hamlet')}`, params)).user).not.toHaveProperty('profile_data');
    }
  });
});
