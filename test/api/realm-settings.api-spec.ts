import { ApiTestClient, expectError, expectSuccess } from '../support';

/** PATCH /realm and GET /user_groups through the whole app (≈ zerver/tests/test_realm.py, test_user_groups.py). */
const REALM = '/api/v1/realm';
const GROUPS = '/api/v1/user_groups';

describe('organization settings and system groups', () => {
  let api: ApiTestClient;
  beforeEach(async () => (api = await ApiTestClient.start()));
  afterEach(() => api.close());

  const groupId = (name: string) => api.systemGroupId(name);
  const patch = (who: string, params: Record<string, unknown>) => api.as(who).patch(REALM, params);
  /** The error, and that nothing was appended for it. */
  const refused = async (response: PromiseLike<Parameters<typeof expectError>[0]>, msg: string, options: { code?: string; status?: number } = {}) => {
    const body = expectError(await response, msg, options);
    expect(await api.newEvents()).toEqual([]);
    return body;
  };
  beforeEach(() => api.markEvents());

  describe('PATCH /realm', () => {
    it('reserves can_create_groups and can_manage_all_groups for owners (update_realm\'s OrganizationOwnerRequiredError)', async () => {
      for (const setting of ['can_create_groups', 'can_manage_all_groups']) {
        // Refused whatever the value, even the current one, and with other settings beside it.
        await refused(patch('iago', { [setting]: { new: groupId('role:administrators') } }), 'Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });
        await refused(patch('iago', { name: 'Renamed', [setting]: { new: groupId(setting === 'can_create_groups' ? 'role:members' : 'role:owners') } }), 'Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });
      }
      const realm = async () => expectSuccess(await api.as('iago').post('/api/v1/register', { fetch_event_types: JSON.stringify(['realm']) }));
      expect((await realm()).realm_name).toBe('Acme Corp');
      // An owner may; an administrator still changes the other settings.
      expect(expectSuccess(await patch('desdemona', { can_create_groups: { new: groupId('role:moderators') }, can_manage_all_groups: { new: groupId('role:administrators') } }))).toMatchObject({
        can_create_groups: groupId('role:moderators'), can_manage_all_groups: groupId('role:administrators'),
      });
      expectSuccess(await patch('iago', { can_resolve_topics_group: { new: groupId('role:members') } }));
      expect(await realm()).toMatchObject({ realm_can_create_groups: groupId('role:moderators'), realm_can_manage_all_groups: groupId('role:administrators'), realm_can_resolve_topics_group: groupId('role:members') });
    });

    it('answers the changed settings: "updated" for strings, values otherwise, group ids for group settings', async () => {
      const body = expectSuccess(
        await patch('iago', {
          name: 'Acme Inc',
          allow_message_editing: false,
          message_content_edit_limit_seconds: 3600,
          move_messages_within_stream_limit_seconds: '"unlimited"',
          topics_policy: 'disable_empty_topic',
          can_mention_many_users_group: { new: groupId('role:moderators'), old: groupId('role:administrators') },
          can_resolve_topics_group: { new: groupId('role:members') },
        }),
      );
      expect(body).toEqual({
        result: 'success',
        msg: '',
        name: 'updated',
        allow_message_editing: false,
        message_content_edit_limit_seconds: 3600,
        move_messages_within_stream_limit_seconds: null,
        topics_policy: 'disable_empty_topic',
        can_mention_many_users_group: groupId('role:moderators'),
        can_resolve_topics_group: groupId('role:members'),
      });
      const events = await api.newEvents();
      expect(events.map((e) => e.type)).toEqual([
        'RealmPropertyChanged', 'RealmPropertyChanged', 'RealmPropertyChanged', 'RealmPropertyChanged', 'RealmPropertyChanged',
        'RealmGroupSettingChanged', 'RealmGroupSettingChanged',
      ]);
    });

    it('answers {} and records nothing when every value is already current (Zulip\'s defaults)', async () => {
      const body = expectSuccess(
        await patch('iago', {
          allow_message_editing: true,
          message_content_edit_limit_seconds: 600,
          move_messages_between_streams_limit_seconds: 604800,
          topics_policy: 'allow_empty_topic',
          can_mention_many_users_group: { new: groupId('role:administrators') },
          can_move_messages_between_channels_group: { new: groupId('role:members') },
          can_move_messages_between_topics_group: { new: groupId('role:everyone') },
          direct_message_permission_group: { new: groupId('role:everyone') },
        }),
      );
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await api.newEvents()).toEqual([]);
    });

    it('accepts a bare group id and the anonymous forms Zulip reduces to a group', async () => {
      expect(expectSuccess(await patch('iago', { can_resolve_topics_group: groupId('role:moderators') })).can_resolve_topics_group).toBe(groupId('role:moderators'));
      expect(
        expectSuccess(await patch('iago', { can_resolve_topics_group: { new: { direct_members: [], direct_subgroups: [groupId('role:owners')] } } })).can_resolve_topics_group,
      ).toBe(groupId('role:owners'));
      expect(expectSuccess(await patch('iago', { can_resolve_topics_group: { new: { direct_members: [], direct_subgroups: [] } } })).can_resolve_topics_group).toBe(
        groupId('role:nobody'),
      );
    });

    it.each([
      [() => ({ message_content_edit_limit_seconds: 0 }), "Bad value for 'message_content_edit_limit_seconds': 0"],
      [() => ({ message_content_edit_limit_seconds: -5 }), "Bad value for 'message_content_edit_limit_seconds': -5"],
      [() => ({ move_messages_within_stream_limit_seconds: '"forever"' }), "Bad value for 'move_messages_within_stream_limit_seconds': forever"],
      [() => ({ move_messages_between_streams_limit_seconds: 0 }), "Bad value for 'move_messages_between_streams_limit_seconds': 0"],
      [() => ({ message_content_edit_limit_seconds: 'unlimited' }), 'message_content_edit_limit_seconds is not valid JSON'],
      [() => ({ topics_policy: 'empty_topic_only' }), 'Invalid topics_policy'],
      [() => ({ allow_message_editing: 'maybe' }), 'allow_message_editing is not valid JSON'],
      [() => ({ can_mention_many_users_group: { new: 99999 } }), 'Invalid user group'],
      [() => ({ can_mention_many_users_group: { new: groupId('role:internet') } }), "'can_mention_many_users_group' setting cannot be set to 'role:internet' group."],
      [() => ({ can_move_messages_between_channels_group: { new: groupId('role:everyone') } }), "'can_move_messages_between_channels_group' setting cannot be set to 'role:everyone' group."],
      [() => ({ direct_message_permission_group: { new: { direct_members: [10], direct_subgroups: [] } } }), "'direct_message_permission_group' must be a system user group."],
      [() => ({ name: 'x'.repeat(41) }), 'name is too long (limit: 40 characters)'],
      [() => ({ name: ' ' }), "Organization name can't be empty."],
    ])('refuses bad value %#, with Zulip\'s message, and stores nothing of the request', async (params, msg) => {
      await refused(patch('iago', { allow_message_editing: false, ...params() }), msg);
    });

    it('refuses a stale "old" value with EXPECTATION_MISMATCH', async () => {
      await refused(
        patch('iago', { can_mention_many_users_group: { new: groupId('role:members'), old: groupId('role:moderators') } }),
        "'old' value does not match the expected value.",
        { code: 'EXPECTATION_MISMATCH' },
      );
    });

    it('is for administrators: members, moderators and guests are refused', async () => {
      for (const who of ['hamlet', 'shiva', 'polonius']) {
        await refused(patch(who, { allow_message_editing: false }), 'Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
      }
      expectSuccess(await patch('desdemona', { allow_message_editing: false }));
    });

    it('lets everyone use wildcard mentions in large channels once can_mention_many_users_group is role:everyone', async () => {
      expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'crowd' }], principals: [api.user('iago').userId, api.user('hamlet').userId] }));
      for (let i = 0; i < 15; i++) {
        const created = expectSuccess(await api.as('iago').post('/api/v1/users', { email: `u${i}@acme.test`, password: 'secret-password', full_name: `User ${i}` }));
        expectSuccess(await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'crowd' }], principals: [created.user_id] }));
      }
      const wildcard = { type: 'stream', to: 'crowd', topic: 't', content: 'hi @**all**' };
      expectError(await api.as('hamlet').post('/api/v1/messages', wildcard), 'You do not have permission to use channel wildcard mentions in this channel.', {
        code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      });
      expectSuccess(await patch('iago', { can_mention_many_users_group: { new: groupId('role:everyone') } }));
      expectSuccess(await api.as('hamlet').post('/api/v1/messages', wildcard));
      expectSuccess(await patch('iago', { can_mention_many_users_group: { new: groupId('role:nobody') } }));
      expectError(await api.as('iago').post('/api/v1/messages', wildcard), 'You do not have permission to use channel wildcard mentions in this channel.');
    });
  });

  describe('GET /user_groups', () => {
    it('lists the eight system groups by id, with direct members by role and the nesting', async () => {
      const { user_groups } = expectSuccess(await api.as('hamlet').get(GROUPS));
      const ids = (names: string[]) => names.map((n) => api.user(n).userId).sort((a, b) => a - b);
      const nobody = groupId('role:nobody');
      const permissions = {
        can_add_members_group: nobody, can_join_group: nobody, can_leave_group: nobody,
        can_manage_group: nobody, can_mention_group: nobody, can_remove_members_group: nobody,
      };
      const common = { creator_id: null, date_created: null, is_system_group: true, deactivated: false, ...permissions };
      expect(user_groups).toEqual([
        { id: groupId('role:owners'), name: 'role:owners', description: 'Owners of this organization', members: ids(['desdemona']), direct_subgroup_ids: [], ...common },
        {
          id: groupId('role:administrators'), name: 'role:administrators', description: 'Administrators of this organization, including owners',
          members: ids(['iago']), direct_subgroup_ids: [groupId('role:owners')], ...common,
        },
        {
          id: groupId('role:moderators'), name: 'role:moderators', description: 'Moderators of this organization, including administrators',
          members: ids(['shiva']), direct_subgroup_ids: [groupId('role:administrators')], ...common,
        },
        {
          id: groupId('role:fullmembers'), name: 'role:fullmembers', description: 'Members of this organization, not including new accounts and guests',
          members: ids(['hamlet', 'cordelia']), direct_subgroup_ids: [groupId('role:moderators')], ...common,
        },
        {
          id: groupId('role:members'), name: 'role:members', description: 'Members of this organization, not including guests',
          members: ids(['hamlet', 'cordelia']), direct_subgroup_ids: [groupId('role:fullmembers')], ...common,
        },
        {
          id: groupId('role:everyone'), name: 'role:everyone', description: 'Everyone in this organization, including guests',
          members: ids(['polonius']), direct_subgroup_ids: [groupId('role:members')], ...common,
        },
        { id: groupId('role:internet'), name: 'role:internet', description: 'Everyone on the Internet', members: [], direct_subgroup_ids: [groupId('role:everyone')], ...common },
        { id: nobody, name: 'role:nobody', description: 'Nobody', members: [], direct_subgroup_ids: [], ...common },
      ]);
    });

    it('leaves deactivated users out and accepts include_deactivated_groups', async () => {
      expectSuccess(await api.as('iago').delete(`/api/v1/users/${api.user('cordelia').userId}`));
      const { user_groups } = expectSuccess(await api.as('hamlet').get(GROUPS, { include_deactivated_groups: true }));
      expect(user_groups.find((g: { name: string }) => g.name === 'role:members').members).toEqual([api.user('hamlet').userId]);
      expectError(await api.as('hamlet').get(GROUPS, { include_deactivated_groups: 'yes' }), 'include_deactivated_groups is not valid JSON');
    });
  });
});
