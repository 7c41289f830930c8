import { CustomProfileFieldQueries } from '@app/application';
import { ApiTestClient, expectError, expectSuccess } from '../support';

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
