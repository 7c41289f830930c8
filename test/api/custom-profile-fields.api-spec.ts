import { CustomProfileFieldQueries } from '@app/application';
import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/** zerver/tests/test_custom_profile_data.py through the real HTTP stack. */
describe('custom profile fields', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const FIELDS = '/api/v1/realm/profile_fields';
  const PROFILE = '/api/v1/users/me/profile_data';
  const create = async (params: Record<string, unknown>) => expectSuccess(await api.as('iago').post(FIELDS, params)).id as number;
  const list = async (who = 'hamlet') => expectSuccess(await api.as(who).get(FIELDS)).custom_fields;
  const profileOf = (name: string) => api.app.get(CustomProfileFieldQueries).profileDataOf(api.realmId, api.user(name).userId);
  const { refused } = personaHelpers(() => api);

  describe('POST /realm/profile_fields', () => {
    it('creates fields every user can list, in Zulip\'s shape', async () => {
      const phone = await create({ name: 'Phone', hint: 'Contact no.', field_type: 1, display_in_profile_summary: true, use_for_user_matching: true });
      const language = await create({
        name: 'Favorite programming language', field_type: 3, required: true, editable_by_user: false,
        field_data: { python: { text: 'Python', order: '1' }, java: { text: 'Java', order: '2' } },
      });
      expect(await list('polonius')).toEqual([
        { id: phone, name: 'Phone', type: 1, hint: 'Contact no.', field_data: '', order: phone, required: false, editable_by_user: true, display_in_profile_summary: true, use_for_user_matching: true },
        {
          id: language, name: 'Favorite programming language', type: 3, hint: '', order: language, required: true, editable_by_user: false,
          field_data: '{"python":{"text":"Python","order":"1"},"java":{"text":"Java","order":"2"}}',
        },
      ]);
    });

    it('takes a default external account\'s label', async () => {
      await create({ field_type: 7, field_data: { subtype: 'github' } });
      expect(await list()).toEqual([expect.objectContaining({ name: 'GitHub username', hint: '', field_data: '{"subtype":"github"}' })]);
    });

    it('is for administrators', async () => {
      await refused(await api.as('hamlet').post(FIELDS, { name: 'Phone', field_type: 1 }), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
    });

    it('answers Zulip\'s errors and stores nothing', async () => {
      await create({ name: 'Phone', field_type: 1 });
      await api.markEvents();
      await refused(await api.as('iago').post(FIELDS, { name: 'X' }), "Missing 'field_type' argument");
      await refused(await api.as('iago').post(FIELDS, { name: 'X', field_type: 9 }), 'Invalid field type.');
      await refused(await api.as('iago').post(FIELDS, { name: '  ', field_type: 1 }), 'Label cannot be blank.');
      await refused(await api.as('iago').post(FIELDS, { name: 'x'.repeat(41), field_type: 1 }), 'name is too long (limit: 40 characters)');
      await refused(await api.as('iago').post(FIELDS, { name: 'X', hint: 'h'.repeat(81), field_type: 1 }), 'hint is too long (limit: 80 characters)');
      await refused(await api.as('iago').post(FIELDS, { name: 'Phone', field_type: 1 }), 'A field with that label already exists.');
      await refused(await api.as('iago').post(FIELDS, { name: 'L', field_type: 3 }), 'Field must have at least one choice.');
      await refused(await api.as('iago').post(FIELDS, { name: 'L', field_type: 3, field_data: 'invalid' }), 'field_data is not valid JSON');
      await refused(await api.as('iago').post(FIELDS, { name: 'L', field_type: 3, field_data: { a: { text: 'A' } } }), 'order key is missing from field_data');
      await refused(await api.as('iago').post(FIELDS, { name: 'E', field_type: 7, field_data: { subtype: 'myspace' } }), 'Invalid external account type');
      await refused(await api.as('iago').post(FIELDS, { name: 'Mentor', field_type: 6, display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
      await refused(await api.as('iago').post(FIELDS, { name: 'Bio', field_type: 2, use_for_user_matching: true }), 'Field type not supported for use for user matching.');
    });

    it('shows at most 2 fields in the profile summary', async () => {
      await create({ name: 'A', field_type: 1, display_in_profile_summary: true });
      await create({ name: 'B', field_type: 4, display_in_profile_summary: true });
      await api.markEvents();
      await refused(await api.as('iago').post(FIELDS, { name: 'C', field_type: 1, display_in_profile_summary: true }), 'Only 2 custom profile fields can be displayed in the profile summary.');
      expect(await create({ name: 'C', field_type: 1, display_in_profile_summary: false })).toEqual(expect.any(Number));
    });

    it('shows a Paragraph field in the profile summary (feature level 476), created so or changed to it', async () => {
      const bio = await create({ name: 'Bio', field_type: 2, display_in_profile_summary: true });
      const about = await create({ name: 'About', field_type: 2 });
      expectSuccess(await api.as('iago').patch(`${FIELDS}/${about}`, { display_in_profile_summary: true }));
      const byId = new Map((await list()).map((f: { id: number }) => [f.id, f]));
      expect(byId.get(bio)).toMatchObject({ type: 2, display_in_profile_summary: true });
      expect(byId.get(about)).toMatchObject({ type: 2, display_in_profile_summary: true });
    });

    it('accepts the multipart shape zulip-js sends', async () => {
      expectSuccess(await api.as('iago').postMultipart(FIELDS, { name: 'Phone', field_type: 1, required: true }));
      expect((await list())[0]).toMatchObject({ name: 'Phone', required: true });
    });
  });

  describe('PATCH and DELETE /realm/profile_fields/{id}, PATCH /realm/profile_fields', () => {
    it('updates what is given', async () => {
      const id = await create({ name: 'Phone', hint: 'Work', field_type: 1 });
      expectSuccess(await api.as('iago').patch(`${FIELDS}/${id}`, { name: 'Cell', required: true }));
      expect((await list())[0]).toMatchObject({ name: 'Cell', hint: 'Work', required: true });
    });

    it('answers Zulip\'s errors', async () => {
      const github = await create({ field_type: 7, field_data: { subtype: 'github' } });
      const a = await create({ name: 'A', field_type: 1, display_in_profile_summary: true });
      await create({ name: 'B', field_type: 1, display_in_profile_summary: true });
      const c = await create({ name: 'C', field_type: 1 });
      await api.markEvents();
      await refused(await api.as('iago').patch(`${FIELDS}/999`, { name: 'x' }), 'Field id 999 not found.');
      await refused(await api.as('iago').patch(`${FIELDS}/${c}`, { display_in_profile_summary: true }), 'Only 2 custom profile fields can be displayed in the profile summary.');
      await refused(await api.as('iago').patch(`${FIELDS}/${github}`, { name: 'Code' }), 'Default custom field cannot be updated.');
      await refused(await api.as('iago').patch(`${FIELDS}/${c}`, { name: 'A' }), 'A field with that label already exists.');
      await refused(await api.as('hamlet').patch(`${FIELDS}/${a}`, { name: 'x' }), 'Must be an organization administrator');
      expectSuccess(await api.as('iago').patch(`${FIELDS}/${a}`, { display_in_profile_summary: true }));
    });

    it('deletes a field and every value of it', async () => {
      const id = await create({ name: 'Phone', field_type: 1 });
      expectSuccess(await api.as('hamlet').patch(PROFILE, { data: [{ id, value: '555' }] }));
      expectSuccess(await api.as('iago').delete(`${FIELDS}/${id}`));
      expect(await list()).toEqual([]);
      expect(await profileOf('hamlet')).toEqual({});
      await api.markEvents();
      await refused(await api.as('iago').delete(`${FIELDS}/${id}`), `Field id ${id} not found.`);
    });

    it('reorders every field', async () => {
      const [a, b] = [await create({ name: 'A', field_type: 1 }), await create({ name: 'B', field_type: 1 })];
      expectSuccess(await api.as('iago').patch(FIELDS, { order: [b, a] }));
      expect((await list()).map((f: { id: number }) => f.id)).toEqual([b, a]);
      await api.markEvents();
      await refused(await api.as('iago').patch(FIELDS, { order: [a] }), 'Invalid order mapping.');
      await refused(await api.as('iago').patch(FIELDS, { order: [100, 200, 300] }), 'Invalid order mapping.');
    });
  });

  describe('PATCH and DELETE /users/me/profile_data', () => {
    it('sets a user\'s values: Markdown fields rendered, Users fields as JSON', async () => {
      const phone = await create({ name: 'Phone', field_type: 1 });
      const mentor = await create({ name: 'Mentor', field_type: 6 });
      const birthday = await create({ name: 'Birthday', field_type: 4 });
      expectSuccess(await api.as('hamlet').patch(PROFILE, { data: [{ id: phone, value: '**555**' }, { id: mentor, value: [api.user('iago').userId] }, { id: birthday, value: '1990-05-01' }] }));
      expect(await profileOf('hamlet')).toEqual({
        [phone]: { value: '**555**', rendered_value: '<p><strong>555</strong></p>' },
        [mentor]: { value: `[${api.user('iago').userId}]` },
        [birthday]: { value: '1990-05-01' },
      });
    });

    it('checks every value before storing any', async () => {
      const phone = await create({ name: 'Phone', field_type: 1 });
      const birthday = await create({ name: 'Birthday', field_type: 4 });
      const mentor = await create({ name: 'Mentor', field_type: 6 });
      await api.markEvents();
      await refused(await api.as('hamlet').patch(PROFILE, { data: [{ id: phone, value: '555' }, { id: birthday, value: 'soon' }] }), 'Birthday is not a date');
      await refused(await api.as('hamlet').patch(PROFILE, { data: [{ id: 1234, value: '12' }] }), 'Field id 1234 not found.');
      await refused(await api.as('hamlet').patch(PROFILE, { data: [{ id: mentor, value: [9999] }] }), 'Invalid user IDs: 9999');
      await refused(await api.as('hamlet').patch(PROFILE, { data: [{ id: phone, value: 'x'.repeat(51) }] }), 'Phone is too long (limit: 50 characters)');
      await refused(await api.as('hamlet').patch(PROFILE, { data: '[{"id": 1}]' }), 'data[0]["value"] field is missing');
      expect(await profileOf('hamlet')).toEqual({});
    });

    it('keeps fields not editable by users for administrators', async () => {
      const employee = await create({ name: 'Employee ID', field_type: 1, editable_by_user: false });
      await api.markEvents();
      await refused(await api.as('hamlet').patch(PROFILE, { data: [{ id: employee, value: 'E1' }] }), 'You are not allowed to change this field. Contact an administrator to update it.');
      expectSuccess(await api.as('iago').patch(PROFILE, { data: [{ id: employee, value: 'E2' }] }));
    });

    it('drops values whose choice is removed', async () => {
      const language = await create({ name: 'Language', field_type: 3, field_data: { py: { text: 'Python', order: '1' }, rs: { text: 'Rust', order: '2' } } });
      expectSuccess(await api.as('hamlet').patch(PROFILE, { data: [{ id: language, value: 'py' }] }));
      expectSuccess(await api.as('cordelia').patch(PROFILE, { data: [{ id: language, value: 'rs' }] }));
      expectSuccess(await api.as('iago').patch(`${FIELDS}/${language}`, { field_data: { rs: { text: 'Rust', order: '1' } } }));
      expect(await profileOf('hamlet')).toEqual({});
      expect(await profileOf('cordelia')).toEqual({ [language]: { value: 'rs' } });
      await api.markEvents();
      await refused(await api.as('hamlet').patch(PROFILE, { data: [{ id: language, value: 'py' }] }), "'py' is not a valid choice for 'Language'.");
    });

    it('removes values', async () => {
      const phone = await create({ name: 'Phone', field_type: 1 });
      expectSuccess(await api.as('hamlet').patch(PROFILE, { data: [{ id: phone, value: '555' }] }));
      expectSuccess(await api.as('hamlet').delete(PROFILE, { data: [phone] }));
      expect(await profileOf('hamlet')).toEqual({});
      await api.markEvents();
      await refused(await api.as('hamlet').delete(PROFILE, { data: [4321] }), 'Field id 4321 not found.');
    });
  });
});
