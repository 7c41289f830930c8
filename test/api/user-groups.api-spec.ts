import { ApiTestClient, expectError, expectSuccess } from '../support';
import { personaHelpers } from '@app/testing';

/** User groups through the real HTTP stack (≈ zerver/tests/test_user_groups.py), as personas. */
const GROUPS = '/api/v1/user_groups';
const CREATE = '/api/v1/user_groups/create';

describe('user groups', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const { id, register, events: eventsOf, refused } = personaHelpers(() => api);
  const ids = (...names: string[]) => names.map(id).sort((a, b) => a - b);
  const list = async (who = 'hamlet', query: Record<string, unknown> = {}) => expectSuccess(await api.as(who).get(GROUPS, query)).user_groups as any[];
  const groupId = async (name: string) => (await list('iago', { include_deactivated_groups: true })).find((g) => g.name === name).id as number;
  const create = async (who: string, name: string, params: Record<string, unknown> = {}) =>
    expectSuccess(await api.as(who).post(CREATE, { name, description: `${name} team`, members: [id(who)], ...params })).group_id as number;
  const group = async (groupIdValue: number) => (await list('iago', { include_deactivated_groups: true })).find((g) => g.id === groupIdValue);
  const events = async (who: string, queueId: string) => (await eventsOf(who, queueId)).map(({ id: _id, ...e }) => e);

  describe('POST /user_groups/create', () => {
    it("creates a group with Zulip's defaults, listed after the system groups", async () => {
      const support = await create('hamlet', 'support', { members: [id('hamlet'), id('cordelia')] });
      expect(support).toBeGreaterThan(1_000_000);
      const groups = await list('cordelia');
      expect(groups.map((g) => g.name)).toEqual([
        'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet', 'role:nobody', 'support',
      ]);
      expect(groups[8]).toEqual({
        id: support, name: 'support', description: 'support team', members: ids('hamlet', 'cordelia'), direct_subgroup_ids: [],
        creator_id: id('hamlet'), date_created: Math.floor(api.clock.now().getTime() / 1000), is_system_group: false, deactivated: false,
        can_add_members_group: { direct_members: [id('hamlet')], direct_subgroups: [] },
        can_join_group: await groupId('role:nobody'),
        can_leave_group: await groupId('role:everyone'),
        can_manage_group: { direct_members: [id('hamlet')], direct_subgroups: [] },
        can_mention_group: await groupId('role:everyone'),
        can_remove_members_group: await groupId('role:nobody'),
      });
    });

    it('takes subgroups and every permission setting, as group ids or anonymous groups', async () => {
      const support = await create('hamlet', 'support');
      const moderators = await groupId('role:moderators');
      const backend = await create('cordelia', 'backend', {
        subgroups: [support, await groupId('role:administrators')],
        can_manage_group: moderators,
        can_mention_group: { direct_members: [id('hamlet')], direct_subgroups: [support] },
        can_join_group: { direct_members: [], direct_subgroups: [support] },
        can_leave_group: { direct_members: [], direct_subgroups: [] },
        can_add_members_group: support,
        can_remove_members_group: await groupId('role:owners'),
      });
      expect(await group(backend)).toMatchObject({
        direct_subgroup_ids: [await groupId('role:administrators'), support],
        can_manage_group: moderators, can_mention_group: { direct_members: [id('hamlet')], direct_subgroups: [support] },
        can_join_group: support, can_leave_group: await groupId('role:nobody'), can_add_members_group: support, can_remove_members_group: await groupId('role:owners'),
      });
    });

    it('refuses what Zulip refuses, appending nothing', async () => {
      await create('hamlet', 'support');
      await api.markEvents();
      const post = (params: Record<string, unknown>, who = 'hamlet') => api.as(who).post(CREATE, { name: 'backend', description: 'Backend team', members: [], ...params });
      await refused(await post({}, 'polonius'), 'Not allowed for guest users');
      await refused(await post({ members: [1111] }), 'Invalid user ID: 1111');
      await refused(await post({ name: 'support' }), "User group 'support' already exists.");
      await refused(await post({ name: 'a'.repeat(101) }), 'User group name cannot exceed 100 characters.');
      await refused(await post({ name: '' }), "User group name can't be empty!");
      for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) await refused(await post({ name: `${prefix}x` }), `User group name cannot start with '${prefix}'.`);
      await refused(await post({ can_mention_group: await groupId('role:internet') }), "'can_mention_group' setting cannot be set to 'role:internet' group.");
      await refused(await post({ can_manage_group: await groupId('role:everyone') }), "'can_manage_group' setting cannot be set to 'role:everyone' group.");
      await refused(await post({ can_mention_group: 123456 }), 'Invalid user group');
      await refused(await post({ can_mention_group: { direct_members: [1111], direct_subgroups: [] } }), 'Invalid user ID: 1111');
      await refused(await post({ can_mention_group: { direct_members: [id('hamlet')], direct_subgroups: [123456] } }), 'Invalid user group ID: 123456');
      await refused(await post({ subgroups: [123456] }), 'Invalid user group ID: 123456');
      await refused(await api.as('hamlet').post(CREATE, { name: 'backend', members: [] }), "Missing 'description' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      await refused(await api.as('hamlet').post(CREATE, { name: 'backend', description: '' }), "Missing 'members' argument", { code: 'REQUEST_VARIABLE_MISSING' });
    });

    it("follows the organization's can_create_groups", async () => {
      const realm = await register('hamlet', { fetch_event_types: ['realm'] });
      expect([realm.realm_can_create_groups, realm.realm_can_manage_all_groups]).toEqual([await groupId('role:members'), await groupId('role:owners')]);
      // Owner-only settings (update_realm): the owner changes them.
      expectError(await api.as('desdemona').patch('/api/v1/realm', { can_create_groups: { new: await groupId('role:everyone') } }), "'can_create_groups' setting cannot be set to 'role:everyone' group.");
      expectError(await api.as('desdemona').patch('/api/v1/realm', { can_manage_all_groups: { new: await groupId('role:nobody') } }), "'can_manage_all_groups' setting cannot be set to 'role:nobody' group.");
      expectSuccess(await api.as('desdemona').patch('/api/v1/realm', { can_create_groups: { new: await groupId('role:moderators') } }));
      await api.markEvents();
      await refused(await api.as('hamlet').post(CREATE, { name: 'support', description: '', members: [] }), 'Insufficient permission');
      expect(await create('shiva', 'support')).toEqual(expect.any(Number));
    });
  });

  describe('PATCH /user_groups/{id}', () => {
    it('renames and describes for its managers: the creator and can_manage_all_groups (owners), not administrators', async () => {
      const support = await create('hamlet', 'support');
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${support}`, { name: 'help', description: 'Troubleshooting team' }));
      expect(await group(support)).toMatchObject({ name: 'help', description: 'Troubleshooting team' });
      expectSuccess(await api.as('desdemona').patch(`${GROUPS}/${support}`, { name: 'help team' }));
      await api.markEvents();
      await refused(await api.as('iago').patch(`${GROUPS}/${support}`, { name: 'x' }), 'Insufficient permission');
      await refused(await api.as('cordelia').patch(`${GROUPS}/${support}`, { name: 'x' }), 'Insufficient permission');
      await refused(await api.as('polonius').patch(`${GROUPS}/${support}`, { name: 'x' }), 'Not allowed for guest users');
      await refused(await api.as('desdemona').patch(`${GROUPS}/${await groupId('role:members')}`, { name: 'x' }), 'Insufficient permission');
      await refused(await api.as('desdemona').patch(`${GROUPS}/123456`, { name: 'x' }), 'Invalid user group');
      await refused(await api.as('hamlet').patch(`${GROUPS}/${support}`, {}), 'No new data supplied');
      await create('hamlet', 'marketing');
      await api.markEvents();
      await refused(await api.as('hamlet').patch(`${GROUPS}/${support}`, { name: 'marketing' }), "User group 'marketing' already exists.");
      await refused(await api.as('hamlet').patch(`${GROUPS}/${support}`, { name: 'role:x' }), "User group name cannot start with 'role:'.");
      // The organization's can_manage_all_groups, once it names the administrators, lets Iago in.
      expectSuccess(await api.as('desdemona').patch('/api/v1/realm', { can_manage_all_groups: { new: await groupId('role:administrators') } }));
      expectSuccess(await api.as('iago').patch(`${GROUPS}/${support}`, { name: 'iago says' }));
    });

    it("changes permission settings as {new, old}, checking 'old'", async () => {
      const support = await create('hamlet', 'support');
      const everyone = await groupId('role:everyone');
      const moderators = await groupId('role:moderators');
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${support}`, { can_mention_group: { new: moderators, old: everyone } }));
      expect((await group(support)).can_mention_group).toBe(moderators);
      await api.markEvents();
      await refused(await api.as('hamlet').patch(`${GROUPS}/${support}`, { can_mention_group: { new: everyone, old: everyone } }), "'old' value does not match the expected value.", {
        code: 'EXPECTATION_MISMATCH',
      });
      await refused(await api.as('hamlet').patch(`${GROUPS}/${support}`, { can_mention_group: everyone }), 'can_mention_group does not have the expected format');
      await refused(await api.as('hamlet').patch(`${GROUPS}/${support}`, { can_join_group: { new: await groupId('role:internet') } }), "'can_join_group' setting cannot be set to 'role:internet' group.");
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${support}`, { can_manage_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [moderators] } } }));
      // Hamlet managed the group through can_manage_group only: now Cordelia and the moderators do.
      await api.markEvents();
      await refused(await api.as('hamlet').patch(`${GROUPS}/${support}`, { name: 'x' }), 'Insufficient permission');
      expectSuccess(await api.as('cordelia').patch(`${GROUPS}/${support}`, { name: 'cordelia says' }));
      expectSuccess(await api.as('shiva').patch(`${GROUPS}/${support}`, { name: 'shiva says' }));
    });
  });

  describe('POST /user_groups/{id}/members', () => {
    it('adds and removes members, in Zulip\'s words when it cannot', async () => {
      const support = await create('hamlet', 'support');
      const members = (params: Record<string, unknown>, who = 'hamlet') => api.as(who).post(`${GROUPS}/${support}/members`, params);
      expectSuccess(await members({ add: [id('cordelia'), id('iago')] }));
      expectSuccess(await members({ delete: [id('iago')] }));
      expect((await group(support)).members).toEqual(ids('hamlet', 'cordelia'));
      // Notification Bot tells each user someone else added or removed (notify_for_user_group_subscription_changes).
      const newest = async (who: string) =>
        (expectSuccess(await api.as(who).get('/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }] })).messages as any[])[0];
      const added = await newest('cordelia');
      expect(added).toMatchObject({ sender_full_name: 'Notification Bot', type: 'private' });
      expect(added.content).toBe(
        `<p><span class="user-mention silent" data-user-id="${id('hamlet')}">King Hamlet</span> added you to the group ` +
          `<span class="user-group-mention silent" data-user-group-id="${support}">support</span>.</p>`,
      );
      expect((await newest('iago')).content).toContain('removed you from the group');
      expect(await newest('hamlet')).toBeUndefined();
      await api.markEvents();
      await refused(await members({ add: [id('cordelia')] }), `User ${id('cordelia')} is already a member of this group`);
      await refused(await members({ delete: [id('iago')] }), `There is no member '${id('iago')}' in this user group`);
      await refused(await members({ add: [1111] }), 'Invalid user ID: 1111');
      await refused(await members({}), 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
      await refused(await members({ add: [id('shiva')] }, 'cordelia'), 'Insufficient permission');
      await refused(await members({ add: [id('shiva')] }, 'polonius'), 'Not allowed for guest users');
      await refused(await api.as('desdemona').post(`${GROUPS}/${await groupId('role:members')}/members`, { add: [id('polonius')] }), 'Insufficient permission');
      await refused(await api.as('hamlet').post(`${GROUPS}/123456/members`, { add: [id('shiva')] }), 'Invalid user group');
    });

    it('lets users join with can_join_group and leave with can_leave_group (default everyone)', async () => {
      const support = await create('hamlet', 'support');
      await api.markEvents();
      await refused(await api.as('cordelia').post(`${GROUPS}/${support}/members`, { add: [id('cordelia')] }), 'Insufficient permission');
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${support}`, { can_join_group: { new: await groupId('role:members') } }));
      expectSuccess(await api.as('cordelia').post(`${GROUPS}/${support}/members`, { add: [id('cordelia')] }));
      expectSuccess(await api.as('cordelia').post(`${GROUPS}/${support}/members`, { delete: [id('cordelia')] }));
      expect((await group(support)).members).toEqual([id('hamlet')]);
    });

    it('adds and deletes subgroups through add_subgroups and delete_subgroups', async () => {
      const support = await create('hamlet', 'support');
      const admins = await groupId('role:administrators');
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${support}/members`, { add_subgroups: [admins] }));
      expect((await group(support)).direct_subgroup_ids).toEqual([admins]);
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${support}/members`, { delete_subgroups: [admins] }));
      expect((await group(support)).direct_subgroup_ids).toEqual([]);
    });
  });

  describe('POST /user_groups/{id}/subgroups and the membership reads', () => {
    it('nests groups, refuses cycles, and answers members and subgroups directly or recursively', async () => {
      const leadership = await create('hamlet', 'leadership', { members: [id('cordelia')] });
      const support = await create('hamlet', 'support', { members: [id('hamlet')] });
      const owners = await groupId('role:owners');
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${support}/subgroups`, { add: [leadership, owners] }));
      await api.markEvents();
      await refused(await api.as('hamlet').post(`${GROUPS}/${support}/subgroups`, { add: [leadership] }), `User group ${leadership} is already a subgroup of this group.`);
      await refused(await api.as('hamlet').post(`${GROUPS}/${leadership}/subgroups`, { add: [support] }), `User group ${leadership} is already a subgroup of one of the passed subgroups.`);
      await refused(await api.as('hamlet').post(`${GROUPS}/${support}/subgroups`, { add: [123456] }), 'Invalid user group ID: 123456');
      await refused(await api.as('hamlet').post(`${GROUPS}/${support}/subgroups`, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
      await refused(await api.as('cordelia').post(`${GROUPS}/${support}/subgroups`, { delete: [leadership] }), 'Insufficient permission');

      const get = async (path: string, query: Record<string, unknown> = {}, who = 'cordelia') => expectSuccess(await api.as(who).get(path, query));
      expect((await get(`${GROUPS}/${support}/members`)).members).toEqual(ids('desdemona', 'hamlet', 'cordelia'));
      expect((await get(`${GROUPS}/${support}/members`, { direct_member_only: true })).members).toEqual([id('hamlet')]);
      expect((await get(`${GROUPS}/${support}/subgroups`)).subgroups).toEqual([owners, leadership]);
      expect((await get(`${GROUPS}/${support}/subgroups`, { direct_subgroup_only: true })).subgroups).toEqual([owners, leadership]);
      expect((await get(`${GROUPS}/${await groupId('role:moderators')}/subgroups`)).subgroups).toEqual([owners, await groupId('role:administrators')]);
      expect((await get(`${GROUPS}/${await groupId('role:moderators')}/members`)).members).toEqual(ids('desdemona', 'iago', 'shiva'));
      expect((await get(`${GROUPS}/${support}/members/${id('cordelia')}`)).is_user_group_member).toBe(true);
      expect((await get(`${GROUPS}/${support}/members/${id('cordelia')}`, { direct_member_only: true })).is_user_group_member).toBe(false);
      expect((await get(`${GROUPS}/${support}/members/${id('iago')}`)).is_user_group_member).toBe(false);
      for (const path of [GROUPS, `${GROUPS}/${support}/members`, `${GROUPS}/${support}/subgroups`, `${GROUPS}/${support}/members/${id('hamlet')}`]) {
        expectError(await api.as('polonius').get(path), 'Not allowed for guest users');
      }
      expectError(await api.as('hamlet').get(`${GROUPS}/123456/members`), 'Invalid user group');
      expectError(await api.as('hamlet').get(`${GROUPS}/123456/subgroups`), 'Invalid user group');
      expectError(await api.as('hamlet').get(`${GROUPS}/${support}/members/1111`), 'No such user');
      expectError(await api.as('hamlet').get(`${GROUPS}/123456/members/${id('hamlet')}`), 'Invalid user group');

      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${support}/subgroups`, { delete: [leadership] }));
      await api.markEvents();
      await refused(await api.as('hamlet').post(`${GROUPS}/${support}/subgroups`, { delete: [leadership] }), `User group ${leadership} is not a subgroup of this group.`);
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${id('cordelia')}`));
      expectError(await api.as('hamlet').get(`${GROUPS}/${leadership}/members/${id('cordelia')}`), 'User is deactivated');
      expect((await get(`${GROUPS}/${leadership}/members`, {}, 'hamlet')).members).toEqual([]);
    });
  });

  describe('POST /user_groups/{id}/deactivate', () => {
    it('refuses while the group is in use, naming what uses it, then deactivates and reactivates', async () => {
      const leadership = await create('hamlet', 'leadership');
      const support = await create('hamlet', 'support', { subgroups: [leadership], can_mention_group: leadership });
      await api.markEvents();
      const body = expectError(await api.as('hamlet').post(`${GROUPS}/${leadership}/deactivate`), 'Cannot deactivate user group in use.', { code: 'CANNOT_DEACTIVATE_GROUP_IN_USE' });
      expect(body.objections).toEqual([{ type: 'subgroup', supergroup_ids: [support] }, { type: 'user_group', group_id: support, settings: ['can_mention_group'] }]);
      await refused(await api.as('cordelia').post(`${GROUPS}/${support}/deactivate`), 'Insufficient permission');
      // Deactivation is not require_member_or_admin: a guest is simply not a manager.
      await refused(await api.as('polonius').post(`${GROUPS}/${support}/deactivate`), 'Insufficient permission');
      await refused(await api.as('desdemona').post(`${GROUPS}/${await groupId('role:members')}/deactivate`), 'Insufficient permission');

      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${support}/deactivate`));
      await api.markEvents();
      await refused(await api.as('hamlet').post(`${GROUPS}/${support}/deactivate`), 'User group is deactivated.');
      // access_user_group_to_read_membership: a deactivated group's membership is not read.
      for (const path of [`${GROUPS}/${support}/members`, `${GROUPS}/${support}/subgroups`, `${GROUPS}/${support}/members/${id('hamlet')}`]) {
        expectError(await api.as('hamlet').get(path), 'User group is deactivated.');
      }
      expect((await list()).map((g) => g.id)).not.toContain(support);
      expect((await list('hamlet', { include_deactivated_groups: true })).find((g) => g.id === support).deactivated).toBe(true);
      await api.markEvents();
      await refused(await api.as('hamlet').post(`${GROUPS}/${leadership}/subgroups`, { add: [support] }), 'User group is deactivated.');
      // The supergroup is deactivated: the subgroup is no longer in use.
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${leadership}/deactivate`));
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${support}`, { deactivated: false }));
      expect((await group(support)).deactivated).toBe(false);
    });
  });

  describe('events and /register', () => {
    it('sends user_group events for every change, and realm_user_groups matches GET /user_groups', async () => {
      // Only the named groups' events (Notification Bot, created on its first notice, joins system groups).
      const named = (list: any[]) => list.filter((e) => (e.group_id ?? e.group?.id) > 1_000_000);
      const { queue_id } = await register('cordelia', { event_types: ['user_group'] });
      const capable = await register('iago', { event_types: ['user_group'], client_capabilities: { include_deactivated_groups: true } });
      const support = await create('hamlet', 'support');
      const leadership = await create('hamlet', 'leadership');
      // Created with subgroups: `add` without them, then `add_subgroups` (add_user_group adds them after creating).
      const nested = await create('hamlet', 'nested', { subgroups: [support] });
      expect(named(await events('cordelia', queue_id)).slice(-2)).toEqual([
        { type: 'user_group', op: 'add', group: { ...(await group(nested)), direct_subgroup_ids: [] } },
        { type: 'user_group', op: 'add_subgroups', group_id: nested, direct_subgroup_ids: [support] },
      ]);
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${nested}/deactivate`));
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${support}`, { name: 'help', description: 'Help', can_mention_group: { new: leadership } }));
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${support}/members`, { add: [id('cordelia')], delete: [id('hamlet')] }));
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${leadership}/subgroups`, { add: [support] }));
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${leadership}/subgroups`, { delete: [support] }));
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${support}`, { can_mention_group: { new: await groupId('role:everyone') } }));
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${leadership}/deactivate`));
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${leadership}`, { deactivated: false }));

      const got = named(await events('cordelia', queue_id)).filter((e) => (e.group_id ?? e.group?.id) !== nested);
      const created = await group(support);
      expect(got[0]).toEqual({ type: 'user_group', op: 'add', group: { ...created, name: 'support', description: 'support team', members: [id('hamlet')], can_mention_group: await groupId('role:everyone') } });
      expect(got.slice(2)).toEqual([
        { type: 'user_group', op: 'update', group_id: support, data: { name: 'help' } },
        { type: 'user_group', op: 'update', group_id: support, data: { description: 'Help' } },
        { type: 'user_group', op: 'update', group_id: support, data: { can_mention_group: leadership } },
        { type: 'user_group', op: 'add_members', group_id: support, user_ids: [id('cordelia')] },
        { type: 'user_group', op: 'remove_members', group_id: support, user_ids: [id('hamlet')] },
        { type: 'user_group', op: 'add_subgroups', group_id: leadership, direct_subgroup_ids: [support] },
        { type: 'user_group', op: 'remove_subgroups', group_id: leadership, direct_subgroup_ids: [support] },
        { type: 'user_group', op: 'update', group_id: support, data: { can_mention_group: await groupId('role:everyone') } },
        // Without include_deactivated_groups a deactivation is a removal and a reactivation an addition.
        { type: 'user_group', op: 'remove', group_id: leadership },
        { type: 'user_group', op: 'add', group: await group(leadership) },
      ]);
      expect(named(await events('iago', capable.queue_id)).filter((e) => (e.group_id ?? e.group?.id) !== nested).slice(-2)).toEqual([
        { type: 'user_group', op: 'update', group_id: leadership, data: { deactivated: true } },
        { type: 'user_group', op: 'update', group_id: leadership, data: { deactivated: false } },
      ]);

      const state = await register('polonius', { fetch_event_types: ['realm_user_groups'] });
      // Guests read the groups through /register (GET /user_groups is require_member_or_admin).
      expect(state.realm_user_groups).toEqual(await list('hamlet'));
      expect(state.realm_user_groups.filter((g: any) => g.is_system_group).map((g: any) => g.name)).toEqual([
        'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet', 'role:nobody',
      ]);
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${support}/deactivate`));
      // A deactivated group's rename reaches only clients that keep deactivated groups.
      expectSuccess(await api.as('hamlet').patch(`${GROUPS}/${support}`, { name: 'old help' }));
      expect((await events('cordelia', queue_id)).slice(-1)).toEqual([{ type: 'user_group', op: 'remove', group_id: support }]);
      expect((await events('iago', capable.queue_id)).slice(-2)).toEqual([
        { type: 'user_group', op: 'update', group_id: support, data: { deactivated: true } },
        { type: 'user_group', op: 'update', group_id: support, data: { name: 'old help' } },
      ]);
      expect((await register('polonius', { fetch_event_types: ['realm_user_groups'] })).realm_user_groups.map((g: any) => g.id)).not.toContain(support);
      const withDeactivated = await register('polonius', { fetch_event_types: ['realm_user_groups'], client_capabilities: { include_deactivated_groups: true } });
      expect(withDeactivated.realm_user_groups.find((g: any) => g.id === support).deactivated).toBe(true);
    });
  });

  describe('OpenAPI', () => {
    it('describes every user-group route with its parameters', async () => {
      const { paths } = (await api.http.get('/api/v1/openapi.json')).body;
      const userGroupPaths = Object.keys(paths).filter((p) => p.includes('user_groups')).sort();
      expect(userGroupPaths).toEqual([
        '/api/v1/user_groups', '/api/v1/user_groups/create', '/api/v1/user_groups/{user_group_id}', '/api/v1/user_groups/{user_group_id}/deactivate',
        '/api/v1/user_groups/{user_group_id}/members', '/api/v1/user_groups/{user_group_id}/members/{user_id}', '/api/v1/user_groups/{user_group_id}/subgroups',
      ]);
      expect(JSON.stringify(paths['/api/v1/user_groups/create'])).toContain('can_mention_group');
    });
  });

  describe('system groups', () => {
    it('follow roles: a role change moves the user between system groups, with user_group events', async () => {
      const { queue_id } = await register('hamlet', { event_types: ['user_group'] });
      expectSuccess(await api.as('desdemona').patch(`/api/v1/users/${id('cordelia')}`, { role: 300 }));
      expect(await events('hamlet', queue_id)).toEqual([
        { type: 'user_group', op: 'remove_members', group_id: await groupId('role:members'), user_ids: [id('cordelia')] },
        { type: 'user_group', op: 'add_members', group_id: await groupId('role:moderators'), user_ids: [id('cordelia')] },
        { type: 'user_group', op: 'remove_members', group_id: await groupId('role:fullmembers'), user_ids: [id('cordelia')] },
      ]);
      expect((await list()).find((g) => g.name === 'role:moderators').members).toEqual(ids('shiva', 'cordelia'));
      expect((await list()).find((g) => g.name === 'role:members').members).toEqual([id('hamlet')]);
    });
  });

  describe('group mentions', () => {
    const channel = async (name: string, members: string[]) => {
      expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }], principals: members.map(id) }));
    };
    const newest = async (who: string) =>
      (expectSuccess(await api.as(who).get('/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [] })).messages as any[])[0];

    it('renders @*group* and flags its members (through subgroups) mentioned; @_*group* flags nobody', async () => {
      await channel('Dev help', ['iago', 'hamlet', 'cordelia', 'shiva', 'desdemona']);
      const leadership = await create('shiva', 'leadership', { members: [id('shiva')] });
      const support = await create('hamlet', 'support', { members: [id('hamlet')], subgroups: [leadership] });
      const sent = expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help', content: 'hey @*Support* can you help?' }));
      const message = await newest('cordelia');
      expect(message.id).toBe(sent.id);
      expect(message.content).toBe(`<p>hey <span class="user-group-mention" data-user-group-id="${support}">@support</span> can you help?</p>`);
      for (const who of ['hamlet', 'shiva']) expect((await newest(who)).flags).toContain('mentioned');
      for (const who of ['cordelia', 'iago', 'desdemona']) expect((await newest(who)).flags).not.toContain('mentioned');

      expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help', content: 'fyi @_*support*' }));
      expect((await newest('cordelia')).content).toBe(`<p>fyi <span class="user-group-mention silent" data-user-group-id="${support}">support</span></p>`);
      expect((await newest('hamlet')).flags).not.toContain('mentioned');
    });

    it('makes the human subscribed members of a mentioned group follow the topic, as a personal mention does (automatically_follow_topics_where_mentioned)', async () => {
      await channel('Dev help', ['iago', 'hamlet', 'cordelia', 'shiva']);
      const bot = expectSuccess(await api.as('hamlet').post('/api/v1/bots', { full_name: 'Support Bot', short_name: 'supportbot' }));
      const botEmail = expectSuccess(await api.as('hamlet').get(`/api/v1/users/${bot.user_id}`)).user.email as string;
      expectSuccess(await api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Dev help' }], principals: [bot.user_id] }));
      // polonius is a member but not subscribed; iago has turned the setting off.
      await create('hamlet', 'support', { members: [id('hamlet'), id('shiva'), id('iago'), id('polonius'), bot.user_id] });
      expectSuccess(await api.as('iago').patch('/api/v1/settings', { automatically_follow_topics_where_mentioned: false }));
      expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help me', content: 'hey @*support*' }));
      const followed = async (response: Parameters<typeof expectSuccess>[0]) =>
        (expectSuccess(response).user_topics as { topic_name: string; visibility_policy: number }[]).filter((t) => t.visibility_policy === 3).map((t) => t.topic_name);
      const register = (who: string) => api.as(who).post('/api/v1/register', { fetch_event_types: JSON.stringify(['user_topic']) });
      for (const who of ['hamlet', 'shiva', 'cordelia']) expect(await followed(await register(who))).toEqual(['help me']);
      for (const who of ['iago', 'polonius']) expect(await followed(await register(who))).toEqual([]);
      const asBot = await api.http.post('/api/v1/register').auth(botEmail, bot.api_key).type('form').send({ fetch_event_types: JSON.stringify(['user_topic']) });
      expect(await followed(asBot)).toEqual([]);
      // A silent group mention is no mention.
      expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'quietly', content: 'fyi @_*support*' }));
      expect(await followed(await register('shiva'))).toEqual(['help me']);
    });

    it("refuses a mention the group's can_mention_group does not allow; deactivated and system groups render silently", async () => {
      await channel('Dev help', ['iago', 'hamlet', 'cordelia']);
      const support = await create('hamlet', 'support', { can_mention_group: await groupId('role:administrators') });
      await api.markEvents();
      await refused(
        await api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help', content: 'hey @*support*' }),
        "You are not allowed to mention user group 'support'.",
      );
      expectSuccess(await api.as('iago').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help', content: 'hey @*support*' }));
      expect((await newest('hamlet')).flags).toContain('mentioned');
      // A deactivated group renders as a silent mention (Zulip 10): nobody flagged, no permission needed.
      expectSuccess(await api.as('hamlet').post(`${GROUPS}/${support}/deactivate`));
      expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help', content: 'hey @*support*' }));
      expect((await newest('hamlet')).content).toBe(`<p>hey <span class="user-group-mention silent" data-user-group-id="${support}">support</span></p>`);
      expect((await newest('hamlet')).flags).not.toContain('mentioned');
      // System groups read as their display names, and nobody may mention them.
      expectError(await api.as('iago').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help', content: 'hey @*role:members*' }), "You are not allowed to mention user group 'role:members'.");
      expectSuccess(await api.as('iago').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help', content: 'hey @_*role:members*' }));
      expect((await newest('hamlet')).content).toBe(`<p>hey <span class="user-group-mention silent" data-user-group-id="${await groupId('role:members')}">Members</span></p>`);
    });

    it('flags group members when an edit adds the mention', async () => {
      await channel('Dev help', ['iago', 'hamlet', 'cordelia']);
      await create('hamlet', 'support');
      const { id: messageId } = expectSuccess(await api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Dev help', topic: 'help', content: 'hey' }));
      expect((await newest('hamlet')).flags).not.toContain('mentioned');
      expectSuccess(await api.as('cordelia').patch(`/api/v1/messages/${messageId}`, { content: 'hey @*support*' }));
      expect((await newest('hamlet')).flags).toContain('mentioned');
    });
  });
});
