import { USER_GROUP_EVENT_TYPES, type UserGroupEvent } from '@app/domain';
import { USER_GROUPS, type UserGroupDocument } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** Named user groups in the shape of Zulip's UserGroupDict, from `user_groups-<realmId>`. */
export const userGroupsProjection = defineProjection<UserGroupDocument, UserGroupEvent>({
  name: 'user_groups',
  collection: {
    name: USER_GROUPS,
    fields: [
      { name: 'realm_id', type: 'number' },
      { name: 'deactivated', type: 'boolean', index: false },
    ],
  },
  handles: USER_GROUP_EVENT_TYPES,
  idsOf: (event) => [String(event.data.groupId)],
  evolve: (doc, e) => {
    if (e.type === 'UserGroupCreated') {
      const d = e.data;
      return {
        id: d.groupId, realm_id: d.realmId, name: d.name, description: d.description, members: d.members, direct_subgroup_ids: d.subgroupIds,
        creator_id: d.creatorId, date_created: unixSeconds(d.at), is_system_group: false, deactivated: false, ...d.settings,
      };
    }
    if (!doc) return doc;
    switch (e.type) {
      case 'UserGroupNameChanged':
        return { ...doc, name: e.data.newName };
      case 'UserGroupDescriptionChanged':
        return { ...doc, description: e.data.newDescription };
      case 'UserGroupSettingChanged':
        return { ...doc, [e.data.setting]: e.data.newValue };
      case 'UserGroupMembersAdded':
        return { ...doc, members: ascending([...doc.members, ...e.data.userIds]) };
      case 'UserGroupMembersRemoved':
        return { ...doc, members: doc.members.filter((id) => !e.data.userIds.includes(id)) };
      case 'UserGroupSubgroupsAdded':
        return { ...doc, direct_subgroup_ids: ascending([...doc.direct_subgroup_ids, ...e.data.subgroupIds]) };
      case 'UserGroupSubgroupsRemoved':
        return { ...doc, direct_subgroup_ids: doc.direct_subgroup_ids.filter((id) => !e.data.subgroupIds.includes(id)) };
      case 'UserGroupDeactivated':
        return { ...doc, deactivated: true };
      case 'UserGroupReactivated':
        return { ...doc, deactivated: false };
      default:
        return doc;
    }
  },
});
