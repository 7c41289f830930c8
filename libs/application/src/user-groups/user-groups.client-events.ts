import { Injectable } from '@nestjs/common';
import {
  type Role,
  type SystemGroupName,
  unixSeconds,
  type UserCreated,
  type UserDeactivated,
  type UserReactivated,
  type UserRoleChanged,
  type UserGroupCreated,
  type UserGroupDeactivated,
  type UserGroupDescriptionChanged,
  type UserGroupMembersAdded,
  type UserGroupMembersRemoved,
  type UserGroupNameChanged,
  type UserGroupReactivated,
  type UserGroupSettingChanged,
  type UserGroupSubgroupsAdded,
  type UserGroupSubgroupsRemoved,
} from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { realmWide, toRealm } from '../events/deliveries';
import type { ClientEvent } from '../events/event-queue';
import { SystemGroupIds } from '../shared/system-group-ids';
import { apiUserGroup } from './user-group.queries';
import { USER_GROUPS, type UserGroupDocument } from './user-group.documents';

/**
 * `user_group` events (zerver/actions/user_groups.py) to every active user of the organization.
 * A deactivation reaches clients without the include_deactivated_groups capability as `remove`
 * (EventQueue), and a reactivation reaches them as `add` with the whole group.
 */
/** get_system_user_group_for_user: the system group a role makes a user a direct member of. */
const ROLE_GROUP: Record<Role, SystemGroupName> = {
  owner: 'role:owners',
  administrator: 'role:administrators',
  moderator: 'role:moderators',
  member: 'role:members',
  guest: 'role:everyone',
};

@Injectable()
export class UserGroupsClientEvents implements AreaClientEvents {
  /**
   * The active users of each organization, as of the last event mapped: read once, then kept in
   * step by the user events (mappers run in log order), so that creating 10,000 users does not
   * read every user 10,000 times more than the users area already does.
   */
  private readonly activeUsers = new Map<number, Set<number>>();

  constructor(private readonly groupIds: SystemGroupIds) {}

  private async active(c: ClientEventMapperContext, realmId: number): Promise<Set<number>> {
    let users = this.activeUsers.get(realmId);
    if (!users) {
      users = new Set(await realmWide(c, realmId));
      this.activeUsers.set(realmId, users);
    }
    return users;
  }

  clientEvents(): ClientEventMapperList {
    return {
      // System group membership follows roles: do_create_user and do_change_user_role send these.
      UserCreated: async (e: Recorded<UserCreated>, c) => {
        (await this.active(c, e.data.realmId)).add(e.data.userId);
        return this.systemMembership(c, e.data.realmId, e.data.userId, null, e.data.role);
      },
      UserRoleChanged: (e: Recorded<UserRoleChanged>, c) => this.systemMembership(c, e.data.realmId, e.data.userId, e.data.oldRole, e.data.newRole),
      UserDeactivated: (e: Recorded<UserDeactivated>) => {
        this.activeUsers.get(e.data.realmId)?.delete(e.data.userId);
        return [];
      },
      UserReactivated: (e: Recorded<UserReactivated>) => {
        this.activeUsers.get(e.data.realmId)?.add(e.data.userId);
        return [];
      },
      // add_user_group creates the group, then adds its subgroups: `add` without them, then `add_subgroups`.
      UserGroupCreated: async (e: Recorded<UserGroupCreated>, c) => {
        const d = e.data;
        const userIds = await realmWide(c, d.realmId);
        const add: ClientEvent = {
          type: 'user_group',
          op: 'add',
          group: {
            id: d.groupId, name: d.name, description: d.description, members: d.members, direct_subgroup_ids: [],
            creator_id: d.creatorId, date_created: unixSeconds(d.at), is_system_group: false, deactivated: false, ...d.settings,
          },
        };
        const deliveries: ClientEventDelivery[] = [{ userIds, event: add }];
        if (d.subgroupIds.length > 0) {
          deliveries.push({ userIds, event: { type: 'user_group', op: 'add_subgroups', group_id: d.groupId, direct_subgroup_ids: d.subgroupIds } });
        }
        return deliveries;
      },
      UserGroupNameChanged: async (e: Recorded<UserGroupNameChanged>, c) => {
        // do_send_user_group_update_event marks a rename with the group's state (EventQueue reads it).
        const doc = await c.readStore.get<UserGroupDocument>(USER_GROUPS, String(e.data.groupId));
        return toRealm(c, e.data.realmId, { type: 'user_group', op: 'update', group_id: e.data.groupId, data: { name: e.data.newName }, deactivated: doc?.deactivated === true });
      },
      UserGroupDescriptionChanged: (e: Recorded<UserGroupDescriptionChanged>, c) => this.update(c, e.data.realmId, e.data.groupId, { description: e.data.newDescription }),
      UserGroupSettingChanged: (e: Recorded<UserGroupSettingChanged>, c) => this.update(c, e.data.realmId, e.data.groupId, { [e.data.setting]: e.data.newValue }),
      UserGroupDeactivated: (e: Recorded<UserGroupDeactivated>, c) => this.update(c, e.data.realmId, e.data.groupId, { deactivated: true }),
      UserGroupReactivated: (e: Recorded<UserGroupReactivated>, c) => this.reactivated(c, e.data.realmId, e.data.groupId),
      UserGroupMembersAdded: (e: Recorded<UserGroupMembersAdded>, c) =>
        toRealm(c, e.data.realmId, { type: 'user_group', op: 'add_members', group_id: e.data.groupId, user_ids: e.data.userIds }),
      UserGroupMembersRemoved: (e: Recorded<UserGroupMembersRemoved>, c) =>
        toRealm(c, e.data.realmId, { type: 'user_group', op: 'remove_members', group_id: e.data.groupId, user_ids: e.data.userIds }),
      UserGroupSubgroupsAdded: (e: Recorded<UserGroupSubgroupsAdded>, c) =>
        toRealm(c, e.data.realmId, { type: 'user_group', op: 'add_subgroups', group_id: e.data.groupId, direct_subgroup_ids: e.data.subgroupIds }),
      UserGroupSubgroupsRemoved: (e: Recorded<UserGroupSubgroupsRemoved>, c) =>
        toRealm(c, e.data.realmId, { type: 'user_group', op: 'remove_subgroups', group_id: e.data.groupId, direct_subgroup_ids: e.data.subgroupIds }),
    };
  }

  /**
   * `remove_members` from the old role's system group, `add_members` to the new one's, then the
   * change of role:fullmembers (members only, with no waiting period), each to the organization.
   */
  private async systemMembership(c: ClientEventMapperContext, realmId: number, userId: number, oldRole: Role | null, newRole: Role): Promise<ClientEventDelivery[]> {
    if (oldRole === newRole) return [];
    const ids = await this.groupIds.forRealm(realmId);
    const userIds = [...(await this.active(c, realmId))];
    const event = (op: 'add_members' | 'remove_members', group: SystemGroupName): ClientEventDelivery => ({
      userIds, event: { type: 'user_group', op, group_id: ids[group], user_ids: [userId] },
    });
    const deliveries: ClientEventDelivery[] = [];
    if (oldRole !== null) deliveries.push(event('remove_members', ROLE_GROUP[oldRole]));
    deliveries.push(event('add_members', ROLE_GROUP[newRole]));
    if (oldRole === 'member') deliveries.push(event('remove_members', 'role:fullmembers'));
    if (newRole === 'member') deliveries.push(event('add_members', 'role:fullmembers'));
    return deliveries;
  }

  private update(c: ClientEventMapperContext, realmId: number, groupId: number, data: Record<string, unknown>): Promise<ClientEventDelivery[]> {
    return toRealm(c, realmId, { type: 'user_group', op: 'update', group_id: groupId, data });
  }

  /** do_reactivate_user_group: `update` for clients that keep deactivated groups, `add` for the others. */
  private async reactivated(c: ClientEventMapperContext, realmId: number, groupId: number): Promise<ClientEventDelivery[]> {
    const userIds = await realmWide(c, realmId);
    const update: ClientEvent = { type: 'user_group', op: 'update', group_id: groupId, data: { deactivated: false } };
    const doc = await c.readStore.get<UserGroupDocument>(USER_GROUPS, String(groupId));
    if (!doc) return [{ userIds, event: update }];
    // The read model may be ahead of this event: the group as this event leaves it is active.
    const add: ClientEvent = { type: 'user_group', op: 'add', group: { ...apiUserGroup(doc, new Set(userIds)), deactivated: false } };
    return [{ userIds, event: update, perQueue: (queue, event) => (queue.includesDeactivatedGroups ? event : add) }];
  }
}
