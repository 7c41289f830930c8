import { recorded, replay } from '@app/testing';
import { userGroupsProjection } from './user-groups.projection';

const AT = '2026-01-02T03:04:05.000Z';
const settings = {
  can_add_members_group: { direct_members: [10], direct_subgroups: [] }, can_join_group: 8, can_leave_group: 6,
  can_manage_group: { direct_members: [10], direct_subgroups: [] }, can_mention_group: 6, can_remove_members_group: 8,
};
const created = { type: 'UserGroupCreated', data: { realmId: 1, groupId: 1000001, name: 'support', description: 'Support', members: [10, 11], subgroupIds: [2], settings, creatorId: 10, at: AT } };
const base = { realmId: 1, groupId: 1000001, actorId: 10, at: AT };
const after = (events: { type: string; data: object }[]) => replay(userGroupsProjection, recorded(events, 'user_groups-1')).get('1000001');

describe('userGroupsProjection', () => {
  it("stores a group in the shape of Zulip's UserGroupDict, keyed by its id", () =>
    expect(after([created])).toEqual({
      id: 1000001, realm_id: 1, name: 'support', description: 'Support', members: [10, 11], direct_subgroup_ids: [2], creator_id: 10,
      date_created: 1767323045, is_system_group: false, deactivated: false, ...settings,
    }));

  it('follows renames, descriptions, settings, members, subgroups and deactivation', () =>
    expect(after([
      created,
      { type: 'UserGroupNameChanged', data: { ...base, oldName: 'support', newName: 'help' } },
      { type: 'UserGroupDescriptionChanged', data: { ...base, oldDescription: 'Support', newDescription: 'Help' } },
      { type: 'UserGroupSettingChanged', data: { ...base, setting: 'can_mention_group', oldValue: 6, newValue: { direct_members: [11], direct_subgroups: [3] } } },
      { type: 'UserGroupMembersAdded', data: { ...base, userIds: [12, 1] } },
      { type: 'UserGroupMembersRemoved', data: { ...base, userIds: [10] } },
      { type: 'UserGroupSubgroupsAdded', data: { ...base, subgroupIds: [1000002] } },
      { type: 'UserGroupSubgroupsRemoved', data: { ...base, subgroupIds: [2] } },
      { type: 'UserGroupDeactivated', data: base },
    ])).toMatchObject({
      name: 'help', description: 'Help', can_mention_group: { direct_members: [11], direct_subgroups: [3] }, members: [1, 11, 12],
      direct_subgroup_ids: [1000002], deactivated: true,
    }));

  it('reactivates', () => expect(after([created, { type: 'UserGroupDeactivated', data: base }, { type: 'UserGroupReactivated', data: base }])!.deactivated).toBe(false));
});
