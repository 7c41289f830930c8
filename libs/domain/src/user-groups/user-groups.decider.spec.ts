import { deciderSpec } from '@app/testing';
import {
  type Actor,
  AlreadySubgroupError,
  CannotDeactivateGroupInUseError,
  GuestUsersNotAllowedError,
  InsufficientPermissionError,
  InvalidUserGroupError,
  InvalidUserGroupIdError,
  InvalidUserGroupNameError,
  InvalidUserIdError,
  NoNewDataError,
  NothingToDoError,
  NotSubgroupError,
  PreviousSettingValueMismatchedError,
  type Role,
  SubgroupCycleError,
  UserAlreadyMemberError,
  type UserGroupCreated,
  UserGroupDeactivatedError,
  UserGroupIdInUseError,
  UserGroupNameInUseError,
  UserGroupSettingNotAllowedError,
  userGroupsDecider,
  type UserGroupsCommand,
  UserNotMemberError,
} from '@app/domain';

const given = deciderSpec(userGroupsDecider);
const AT = '2026-01-01T00:00:00.000Z';
// The conventional ids of organization 1's system groups (owners 1 … nobody 8).
const SYSTEM = {
  'role:owners': 1, 'role:administrators': 2, 'role:moderators': 3, 'role:fullmembers': 4,
  'role:members': 5, 'role:everyone': 6, 'role:internet': 7, 'role:nobody': 8,
} as const;
const ROLES: Record<number, Role> = { 1: 'owner', 2: 'administrator', 3: 'moderator', 10: 'member', 11: 'member', 12: 'guest', 13: 'member' };
const actor = (userId: number): Actor => ({ realmId: 1, userId, role: ROLES[userId], isBot: false });
const desdemona = actor(1);
const iago = actor(2);
const shiva = actor(3);
const hamlet = actor(10);
const othello = actor(11);
const polonius = actor(12);
const users = { ...Object.fromEntries(Object.entries(ROLES).map(([id, role]) => [id, { role, isActive: true }])), 13: { role: 'member' as Role, isActive: false } };
const meta = (by: Actor, realmSettings = { can_create_groups: 'role:members' as const, can_manage_all_groups: 'role:owners' as const }) => ({
  realmId: 1, actor: by, now: AT, systemGroupIds: SYSTEM, users, realmSettings,
});

const created = (groupId: number, name: string, patch: Partial<UserGroupCreated['data']> = {}): UserGroupCreated => ({
  type: 'UserGroupCreated',
  data: {
    realmId: 1, groupId, name, description: '', members: [], subgroupIds: [], creatorId: 10, at: AT,
    settings: {
      can_add_members_group: { direct_members: [10], direct_subgroups: [] }, can_join_group: 8, can_leave_group: 6,
      can_manage_group: { direct_members: [10], direct_subgroups: [] }, can_mention_group: 6, can_remove_members_group: 8,
    },
    ...patch,
  },
});
const support = created(1000001, 'support', { members: [10] });
const leadership = created(1000002, 'leadership', { members: [11], creatorId: 11, settings: { ...created(0, '').data.settings, can_manage_group: { direct_members: [11], direct_subgroups: [] } } });

const create = (by: Actor, patch: Partial<Extract<UserGroupsCommand, { type: 'CreateUserGroup' }>['data']> = {}): UserGroupsCommand => ({
  type: 'CreateUserGroup', data: { ...meta(by), groupId: 1000003, name: 'backend', description: 'Backend team', members: [10], subgroups: [], settings: {}, ...patch },
});
const update = (by: Actor, patch: Partial<Extract<UserGroupsCommand, { type: 'UpdateUserGroup' }>['data']>): UserGroupsCommand => ({
  type: 'UpdateUserGroup', data: { ...meta(by), groupId: support.data.groupId, settings: {}, ...patch },
});
const members = (by: Actor, patch: Partial<{ add: number[]; delete: number[]; addSubgroups: number[]; deleteSubgroups: number[] }>, groupId = support.data.groupId): UserGroupsCommand => ({
  type: 'UpdateUserGroupMembers', data: { ...meta(by), groupId, add: [], delete: [], addSubgroups: [], deleteSubgroups: [], ...patch },
});
const subgroups = (by: Actor, patch: Partial<{ add: number[]; delete: number[] }>, groupId = support.data.groupId): UserGroupsCommand => ({
  type: 'UpdateUserGroupSubgroups', data: { ...meta(by), groupId, add: [], delete: [], ...patch },
});
const deactivate = (by: Actor, groupId = support.data.groupId): UserGroupsCommand => ({ type: 'DeactivateUserGroup', data: { ...meta(by), groupId } });

describe('userGroupsDecider', () => {
  describe('CreateUserGroup', () => {
    it("creates the group with Zulip's defaults: the creator manages it and adds members, everyone mentions and leaves it", () =>
      given([]).when(create(hamlet, { members: [11, 10, 11] })).then([
        {
          type: 'UserGroupCreated',
          data: {
            realmId: 1, groupId: 1000003, name: 'backend', description: 'Backend team', members: [10, 11], subgroupIds: [], creatorId: 10, at: AT,
            settings: {
              can_add_members_group: { direct_members: [10], direct_subgroups: [] }, can_join_group: 8, can_leave_group: 6,
              can_manage_group: { direct_members: [10], direct_subgroups: [] }, can_mention_group: 6, can_remove_members_group: 8,
            },
          },
        },
      ]));

    it('refuses guests, then whoever the organization does not let create groups', () => {
      given([]).when(create(polonius)).thenThrows(GuestUsersNotAllowedError, 'Not allowed for guest users');
      const moderatorsOnly = { ...create(hamlet), data: { ...create(hamlet).data, realmSettings: { can_create_groups: 'role:moderators', can_manage_all_groups: 'role:owners' } } } as UserGroupsCommand;
      given([]).when(moderatorsOnly).thenThrows(InsufficientPermissionError, 'Insufficient permission');
      given([]).when({ ...moderatorsOnly, data: { ...moderatorsOnly.data, actor: shiva } } as UserGroupsCommand).thenMatches([{ type: 'UserGroupCreated' }]);
    });

    it("refuses an id a group already holds (the user_group sequence behind the log), even a deactivated group's, or a system group's", () => {
      given([support]).when(create(hamlet, { groupId: support.data.groupId })).thenThrows(UserGroupIdInUseError, 'User group id 1000001 is already in use.');
      given([support, { type: 'UserGroupDeactivated', data: { realmId: 1, groupId: support.data.groupId, actorId: 10, at: AT } }])
        .when(create(hamlet, { groupId: support.data.groupId }))
        .thenThrows(UserGroupIdInUseError, 'User group id 1000001 is already in use.');
      given([]).when(create(hamlet, { groupId: SYSTEM['role:members'] })).thenThrows(UserGroupIdInUseError, 'User group id 5 is already in use.');
      given([support]).when(create(hamlet, { groupId: 1000002 })).thenMatches([{ type: 'UserGroupCreated', data: { groupId: 1000002 } }]);
    });

    it('refuses unknown and deactivated users as members', () => {
      given([]).when(create(hamlet, { members: [1111] })).thenThrows(InvalidUserIdError, 'Invalid user ID: 1111');
      given([]).when(create(hamlet, { members: [13] })).thenThrows(InvalidUserIdError, 'Invalid user ID: 13');
    });

    it("checks the name as check_user_group_name does, and that it is free", () => {
      given([]).when(create(hamlet, { name: '' })).thenThrows(InvalidUserGroupNameError, "User group name can't be empty!");
      given([]).when(create(hamlet, { name: 'a'.repeat(101) })).thenThrows(InvalidUserGroupNameError, 'User group name cannot exceed 100 characters.');
      for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
        given([]).when(create(hamlet, { name: `${prefix}x` })).thenThrows(InvalidUserGroupNameError, `User group name cannot start with '${prefix}'.`);
      }
      given([support]).when(create(hamlet, { name: 'support' })).thenThrows(UserGroupNameInUseError, "User group 'support' already exists.");
    });

    it('takes settings as group ids or anonymous groups, reducing what names one group', () =>
      given([support]).when(create(hamlet, {
        settings: {
          can_manage_group: { direct_members: [], direct_subgroups: [SYSTEM['role:moderators']] },
          can_mention_group: { direct_members: [11], direct_subgroups: [1000001, 3] },
          can_join_group: { direct_members: [], direct_subgroups: [] },
          can_leave_group: 1000001,
        },
      })).thenMatches([{
        data: { settings: { can_manage_group: 3, can_mention_group: { direct_members: [11], direct_subgroups: [3, 1000001] }, can_join_group: 8, can_leave_group: 1000001 } },
      }]));

    it('refuses role:internet, role:everyone where Zulip does, unknown and deactivated groups', () => {
      given([]).when(create(hamlet, { settings: { can_mention_group: 7 } })).thenThrows(UserGroupSettingNotAllowedError, "'can_mention_group' setting cannot be set to 'role:internet' group.");
      given([]).when(create(hamlet, { settings: { can_manage_group: 6 } })).thenThrows(UserGroupSettingNotAllowedError, "'can_manage_group' setting cannot be set to 'role:everyone' group.");
      given([]).when(create(hamlet, { settings: { can_mention_group: 6 } })).thenMatches([{ type: 'UserGroupCreated' }]);
      given([]).when(create(hamlet, { settings: { can_mention_group: 123456 } })).thenThrows(InvalidUserGroupError, 'Invalid user group');
      given([]).when(create(hamlet, { settings: { can_mention_group: { direct_members: [1111], direct_subgroups: [] } } })).thenThrows(InvalidUserIdError, 'Invalid user ID: 1111');
      given([]).when(create(hamlet, { settings: { can_mention_group: { direct_members: [10], direct_subgroups: [123456] } } })).thenThrows(InvalidUserGroupIdError, 'Invalid user group ID: 123456');
      given([support, { type: 'UserGroupDeactivated', data: { realmId: 1, groupId: 1000001, actorId: 10, at: AT } }])
        .when(create(hamlet, { settings: { can_mention_group: 1000001 } })).thenThrows(UserGroupDeactivatedError, 'User group is deactivated.');
    });

    it('takes subgroups, system groups included', () => {
      given([support]).when(create(hamlet, { subgroups: [1000001, 2] })).thenMatches([{ data: { subgroupIds: [2, 1000001] } }]);
      given([]).when(create(hamlet, { subgroups: [42] })).thenThrows(InvalidUserGroupIdError, 'Invalid user group ID: 42');
    });
  });

  describe('UpdateUserGroup', () => {
    it('renames and describes, for whoever manages the group', () =>
      given([support]).when(update(hamlet, { name: 'help', description: 'Troubleshooting team' })).then([
        { type: 'UserGroupNameChanged', data: { realmId: 1, groupId: 1000001, oldName: 'support', newName: 'help', actorId: 10, at: AT } },
        { type: 'UserGroupDescriptionChanged', data: { realmId: 1, groupId: 1000001, oldDescription: '', newDescription: 'Troubleshooting team', actorId: 10, at: AT } },
      ]));

    it('needs something to change', () => given([support]).when(update(hamlet, {})).thenThrows(NoNewDataError, 'No new data supplied'));

    it('refuses others, system groups and unknown groups', () => {
      given([support]).when(update(othello, { name: 'x' })).thenThrows(InsufficientPermissionError);
      // The organization's owners manage every group (can_manage_all_groups defaults to role:owners), administrators do not.
      given([support]).when(update(desdemona, { name: 'x' })).thenMatches([{ type: 'UserGroupNameChanged' }]);
      given([support]).when(update(iago, { name: 'x' })).thenThrows(InsufficientPermissionError);
      given([support]).when({ ...update(desdemona, { name: 'x' }), data: { ...update(desdemona, { name: 'x' }).data, groupId: 5 } } as UserGroupsCommand).thenThrows(InsufficientPermissionError);
      given([support]).when({ ...update(desdemona, { name: 'x' }), data: { ...update(desdemona, { name: 'x' }).data, groupId: 999 } } as UserGroupsCommand).thenThrows(InvalidUserGroupError);
      given([support]).when(update(polonius, { name: 'x' })).thenThrows(GuestUsersNotAllowedError);
    });

    it('refuses a name in use, and changes nothing when the values are the current ones', () => {
      given([support, leadership]).when(update(hamlet, { name: 'leadership' })).thenThrows(UserGroupNameInUseError, "User group 'leadership' already exists.");
      given([support]).when(update(hamlet, { name: 'support', description: '' })).thenNothingHappened();
    });

    it("changes settings, checking 'old' against the current value", () => {
      given([support]).when(update(hamlet, { settings: { can_mention_group: { new: 3, old: 6 } } })).then([
        { type: 'UserGroupSettingChanged', data: { realmId: 1, groupId: 1000001, setting: 'can_mention_group', oldValue: 6, newValue: 3, actorId: 10, at: AT } },
      ]);
      given([support]).when(update(hamlet, { settings: { can_mention_group: { new: 3, old: 2 } } })).thenThrows(PreviousSettingValueMismatchedError, "'old' value does not match the expected value.");
      given([support]).when(update(hamlet, { settings: { can_mention_group: { new: 3, old: { direct_members: [], direct_subgroups: [6] } } } })).thenMatches([{ type: 'UserGroupSettingChanged' }]);
      given([support]).when(update(hamlet, { settings: { can_mention_group: { new: 6 } } })).thenNothingHappened();
    });

    it('ignores deactivated: true, as edit_user_group does', () => given([support]).when(update(hamlet, { deactivated: true })).thenNothingHappened());

    it('reactivates a deactivated group', () =>
      given([support, { type: 'UserGroupDeactivated', data: { realmId: 1, groupId: 1000001, actorId: 10, at: AT } }])
        .when(update(hamlet, { deactivated: false })).thenMatches([{ type: 'UserGroupReactivated', data: { groupId: 1000001 } }]));
  });

  describe('UpdateUserGroupMembers', () => {
    it('adds and removes members in one go, in that order', () =>
      given([support]).when(members(hamlet, { add: [11, 1], delete: [10] })).thenMatches([
        { type: 'UserGroupMembersAdded', data: { userIds: [1, 11] } },
        { type: 'UserGroupMembersRemoved', data: { userIds: [10] } },
      ]));

    it('needs something to do', () =>
      given([support]).when(members(hamlet, {})).thenThrows(NothingToDoError, 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'));

    it('refuses members already in, users not in, and invalid users', () => {
      given([support]).when(members(hamlet, { add: [10] })).thenThrows(UserAlreadyMemberError, 'User 10 is already a member of this group');
      given([support]).when(members(hamlet, { delete: [11] })).thenThrows(UserNotMemberError, "There is no member '11' in this user group");
      given([support]).when(members(hamlet, { add: [13] })).thenThrows(InvalidUserIdError, 'Invalid user ID: 13');
    });

    it('lets a user join with can_join_group and leave with can_leave_group, but not touch others', () => {
      const joinable = { type: 'UserGroupSettingChanged' as const, data: { realmId: 1, groupId: 1000001, setting: 'can_join_group' as const, oldValue: 8, newValue: 5, actorId: 10, at: AT } };
      given([support]).when(members(othello, { add: [11] })).thenThrows(InsufficientPermissionError);
      given([support, joinable]).when(members(othello, { add: [11] })).thenMatches([{ type: 'UserGroupMembersAdded' }]);
      given([support, joinable]).when(members(othello, { add: [1] })).thenThrows(InsufficientPermissionError);
      given([support, { type: 'UserGroupMembersAdded', data: { realmId: 1, groupId: 1000001, userIds: [11], actorId: 11, at: AT } }])
        .when(members(othello, { delete: [11] })).thenMatches([{ type: 'UserGroupMembersRemoved' }]);
    });

    it('never changes a system group, whoever asks', () =>
      given([]).when(members(desdemona, { add: [10] }, 5)).thenThrows(InsufficientPermissionError, 'Insufficient permission'));

    it('adds and removes subgroups through add_subgroups and delete_subgroups', () =>
      given([support, leadership]).when(members(hamlet, { addSubgroups: [1000002], deleteSubgroups: [1000002] })).thenMatches([
        { type: 'UserGroupSubgroupsAdded', data: { subgroupIds: [1000002] } },
        { type: 'UserGroupSubgroupsRemoved', data: { subgroupIds: [1000002] } },
      ]));
  });

  describe('UpdateUserGroupSubgroups', () => {
    const nested = { type: 'UserGroupSubgroupsAdded' as const, data: { realmId: 1, groupId: 1000001, subgroupIds: [1000002], actorId: 10, at: AT } };

    it('adds subgroups once, and refuses cycles', () => {
      given([support, leadership]).when(subgroups(hamlet, { add: [1000002, 2] })).thenMatches([{ type: 'UserGroupSubgroupsAdded', data: { subgroupIds: [2, 1000002] } }]);
      given([support, leadership, nested]).when(subgroups(hamlet, { add: [1000002] })).thenThrows(AlreadySubgroupError, 'User group 1000002 is already a subgroup of this group.');
      given([support, leadership, nested]).when(subgroups(othello, { add: [1000001] }, 1000002)).thenThrows(SubgroupCycleError, 'User group 1000002 is already a subgroup of one of the passed subgroups.');
      given([support]).when(subgroups(hamlet, { add: [1000001] })).thenThrows(SubgroupCycleError);
    });

    it('removes only direct subgroups', () => {
      given([support, leadership, nested]).when(subgroups(hamlet, { delete: [1000002] })).thenMatches([{ type: 'UserGroupSubgroupsRemoved' }]);
      given([support, leadership]).when(subgroups(hamlet, { delete: [1000002] })).thenThrows(NotSubgroupError, 'User group 1000002 is not a subgroup of this group.');
      given([support]).when(subgroups(hamlet, { delete: [123456] })).thenThrows(InvalidUserGroupIdError, 'Invalid user group ID: 123456');
    });

    it('removes subgroups for managers only, not for can_remove_members_group', () => {
      const removers = { type: 'UserGroupSettingChanged' as const, data: { realmId: 1, groupId: 1000001, setting: 'can_remove_members_group' as const, oldValue: 8, newValue: 5, actorId: 10, at: AT } };
      given([support, leadership, nested, removers]).when(subgroups(othello, { delete: [1000002] })).thenThrows(InsufficientPermissionError);
      given([support, leadership, nested, removers]).when(members(othello, { delete: [10] })).thenMatches([{ type: 'UserGroupMembersRemoved' }]);
    });

    it('needs something to do, and a manager or can_add_members_group', () => {
      given([support]).when(subgroups(hamlet, {})).thenThrows(NothingToDoError, 'Nothing to do. Specify at least one of "add" or "delete".');
      given([support, leadership]).when(subgroups(othello, { add: [1000002] })).thenThrows(InsufficientPermissionError);
    });

    it('refuses a deactivated group as a subgroup', () =>
      given([support, leadership, { type: 'UserGroupDeactivated', data: { realmId: 1, groupId: 1000002, actorId: 11, at: AT } }])
        .when(subgroups(hamlet, { add: [1000002] })).thenThrows(UserGroupDeactivatedError));
  });

  describe('DeactivateUserGroup', () => {
    it('deactivates a group nothing uses', () =>
      given([support]).when(deactivate(hamlet)).then([{ type: 'UserGroupDeactivated', data: { realmId: 1, groupId: 1000001, actorId: 10, at: AT } }]));

    it('refuses while an active group uses it as a subgroup or in a setting, naming them', () => {
      const nested = { type: 'UserGroupSubgroupsAdded' as const, data: { realmId: 1, groupId: 1000001, subgroupIds: [1000002], actorId: 10, at: AT } };
      const mention = { type: 'UserGroupSettingChanged' as const, data: { realmId: 1, groupId: 1000001, setting: 'can_mention_group' as const, oldValue: 6, newValue: 1000002, actorId: 10, at: AT } };
      const act = () => userGroupsDecider.decide(deactivate(othello, 1000002), [support, leadership, nested, mention].reduce(userGroupsDecider.evolve, userGroupsDecider.initialState()));
      expect(act).toThrow(CannotDeactivateGroupInUseError);
      try {
        act();
      } catch (error) {
        expect((error as CannotDeactivateGroupInUseError).extra).toEqual({
          objections: [{ type: 'subgroup', supergroup_ids: [1000001] }, { type: 'user_group', group_id: 1000001, settings: ['can_mention_group'] }],
        });
      }
      given([support, leadership, nested, { type: 'UserGroupDeactivated', data: { realmId: 1, groupId: 1000001, actorId: 10, at: AT } }])
        .when(deactivate(othello, 1000002)).thenMatches([{ type: 'UserGroupDeactivated' }]);
    });

    it('refuses a group already deactivated', () =>
      given([support, { type: 'UserGroupDeactivated', data: { realmId: 1, groupId: 1000001, actorId: 10, at: AT } }])
        .when(deactivate(hamlet)).thenThrows(UserGroupDeactivatedError, 'User group is deactivated.'));

    it('never lets a guest manage, even one named by can_manage_group (allow_everyone_group false)', () => {
      const guestManages = { type: 'UserGroupSettingChanged' as const, data: { realmId: 1, groupId: 1000001, setting: 'can_manage_group' as const, oldValue: 8, newValue: { direct_members: [12], direct_subgroups: [] }, actorId: 10, at: AT } };
      given([support, guestManages]).when(deactivate(polonius)).thenThrows(InsufficientPermissionError);
    });

    it('is for managers only (guests included: no guest check here), and never for system groups', () => {
      given([support]).when(deactivate(othello)).thenThrows(InsufficientPermissionError);
      given([support]).when(deactivate(polonius)).thenThrows(InsufficientPermissionError, 'Insufficient permission');
      given([]).when(deactivate(desdemona, 5)).thenThrows(InsufficientPermissionError);
    });
  });
});
