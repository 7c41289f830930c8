import { Inject, Injectable } from '@nestjs/common';
import { type GraphUser, type SystemGroupName, USER_GROUP_SETTING_NAMES, UserGroupDeactivatedError, UserGroupGraph } from '@app/domain';
import { SystemGroupIds } from '../shared/system-group-ids';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { systemUserGroups } from './system-user-groups';
import type { UserDocument } from '../users/user.documents';
import { UserQueries } from '../users/user.queries';
import { type ApiUserGroup, USER_GROUPS, type UserGroupDocument } from './user-group.documents';

/** Everything membership questions need about one organization, read once. */
export type UserGroupsSnapshot = {
  graph: UserGroupGraph;
  users: GraphUser[];
  named: UserGroupDocument[];
  systemIds: Record<SystemGroupName, number>;
  userDocuments: UserDocument[];
};

/** A group a message may mention: its name, its members counting subgroups, and who may mention it. */
export type MentionableGroup = { id: number; name: string; displayName?: string; deactivated?: boolean; memberIds: number[]; canMention: boolean };

/** SystemGroups.GROUP_DISPLAY_NAME_MAP: how a mention of a system group reads. */
const SYSTEM_GROUP_DISPLAY_NAMES: Record<SystemGroupName, string> = {
  'role:owners': 'Owners',
  'role:administrators': 'Administrators',
  'role:moderators': 'Moderators',
  'role:fullmembers': 'Full members',
  'role:members': 'Members',
  'role:everyone': 'Everyone',
  'role:internet': 'Everyone on the internet',
  'role:nobody': 'Nobody',
};

const graphUser = (u: UserDocument): GraphUser => ({ userId: u.user_id, role: u.role_name, isActive: u.is_active });

/**
 * A named group for the API: deactivated users are neither members nor in the anonymous groups of
 * its settings (Zulip's is_active filters, get_group_setting_value_for_api).
 */
export function apiUserGroup({ realm_id: _realm, ...group }: UserGroupDocument, activeUserIds: ReadonlySet<number>): ApiUserGroup {
  const api: ApiUserGroup = { ...group, members: group.members.filter((id) => activeUserIds.has(id)) };
  for (const setting of USER_GROUP_SETTING_NAMES) {
    const value = group[setting];
    if (typeof value !== 'number') api[setting] = { ...value, direct_members: value.direct_members.filter((id) => activeUserIds.has(id)) };
  }
  return api;
}

/** Reads of the user groups read model and of the system groups derived from roles (zerver/lib/user_groups.py). */
@Injectable()
export class UserGroupQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly users: UserQueries,
    private readonly groupIds: SystemGroupIds,
  ) {}

  named(realmId: number): Promise<UserGroupDocument[]> {
    return this.readStore.find<UserGroupDocument>(USER_GROUPS, { where: { realm_id: realmId } });
  }

  /** A named group of this organization (its document), or null. */
  async byId(realmId: number, groupId: number): Promise<UserGroupDocument | null> {
    const group = await this.readStore.get<UserGroupDocument>(USER_GROUPS, String(groupId));
    return group && group.realm_id === realmId ? group : null;
  }

  async snapshot(realmId: number): Promise<UserGroupsSnapshot> {
    const [named, userDocuments, systemIds] = await Promise.all([this.named(realmId), this.users.list(realmId), this.groupIds.forRealm(realmId)]);
    const graph = new UserGroupGraph(
      named.map((g) => ({ id: g.id, members: g.members, subgroupIds: g.direct_subgroup_ids, deactivated: g.deactivated })),
      systemIds,
    );
    return { graph, users: userDocuments.map(graphUser), named, systemIds, userDocuments };
  }

  /** user_groups_in_realm_serialized: system groups then named groups, by id; deactivated groups on request. */
  async list(realmId: number, options: { includeDeactivated?: boolean } = {}): Promise<ApiUserGroup[]> {
    const { named, userDocuments, systemIds } = await this.snapshot(realmId);
    const active = new Set(userDocuments.filter((u) => u.is_active).map((u) => u.user_id));
    const system: ApiUserGroup[] = systemUserGroups(userDocuments, systemIds);
    const groups = named.filter((g) => options.includeDeactivated || !g.deactivated).map((g) => apiUserGroup(g, active));
    return [...system, ...groups].sort((a, b) => a.id - b.id);
  }

  /** Whether the group (system or named) belongs to this organization. */
  async exists(realmId: number, groupId: number): Promise<boolean> {
    return (await this.snapshot(realmId)).graph.has(groupId);
  }

  /**
   * get_user_group_member_ids: active members, directly or through subgroups; null for no such
   * group (access_user_group_to_read_membership refuses a deactivated group: "User group is deactivated.").
   */
  async members(realmId: number, groupId: number, directOnly: boolean): Promise<number[] | null> {
    const { graph, users } = await this.snapshot(realmId);
    if (!graph.has(groupId)) return null;
    if (graph.isDeactivated(groupId)) throw new UserGroupDeactivatedError();
    return directOnly ? graph.directMembers(groupId, users) : graph.recursiveMembers(groupId, users);
  }

  /** get_subgroup_ids: direct subgroups, or every group below; null for no such group. */
  async subgroups(realmId: number, groupId: number, directOnly: boolean): Promise<number[] | null> {
    const { graph } = await this.snapshot(realmId);
    if (!graph.has(groupId)) return null;
    if (graph.isDeactivated(groupId)) throw new UserGroupDeactivatedError();
    return directOnly ? graph.directSubgroups(groupId).sort((a, b) => a - b) : graph.recursiveSubgroups(groupId);
  }

  /**
   * The groups whose names (lower-cased) the content may mention (MentionData's user group
   * lookup), with their members counting subgroups and whether `sender` is in can_mention_group
   * (sender_can_mention_group). Deactivated groups come too: they render as silent mentions.
   */
  async mentionable(realmId: number, names: string[], sender: { userId: number; role: UserDocument['role_name'] }): Promise<MentionableGroup[]> {
    if (names.length === 0) return [];
    const wanted = new Set(names.map((n) => n.toLowerCase()));
    const [named, systemIds] = await Promise.all([this.named(realmId), this.groupIds.forRealm(realmId)]);
    const graph = new UserGroupGraph(
      named.map((g) => ({ id: g.id, members: g.members, subgroupIds: g.direct_subgroup_ids, deactivated: g.deactivated })),
      systemIds,
    );
    const systemNames = (Object.keys(systemIds) as SystemGroupName[]).filter((name) => wanted.has(name));
    const mentioned = named.filter((g) => wanted.has(g.name.toLowerCase()));
    if (systemNames.length === 0 && mentioned.length === 0) return [];
    // The organization's users are read only when a system group takes part (members by role);
    // otherwise members come from the groups themselves, and the send keeps only active
    // subscribers anyway, so a 1,000-member group costs no read of every user.
    const needsRoles = systemNames.length > 0 || mentioned.some((g) => !g.deactivated && graph.recursiveSubgroups(g.id).some((id) => graph.systemName(id) !== undefined));
    const users: GraphUser[] = needsRoles
      ? (await this.users.list(realmId)).map(graphUser)
      : [...new Set(mentioned.flatMap((g) => [g.id, ...graph.recursiveSubgroups(g.id)]).flatMap((id) => graph.namedGroup(id)?.members ?? []))]
          .map((userId) => ({ userId, role: 'member' as const, isActive: true }));
    const result: MentionableGroup[] = [];
    for (const name of systemNames) {
      // System groups show their display name; their can_mention_group is role:nobody.
      result.push({ id: systemIds[name], name, displayName: SYSTEM_GROUP_DISPLAY_NAMES[name], memberIds: graph.recursiveMembers(systemIds[name], users), canMention: false });
    }
    for (const group of mentioned) {
      if (group.deactivated) {
        result.push({ id: group.id, name: group.name, deactivated: true, memberIds: [], canMention: true });
        continue;
      }
      const everyone = group.can_mention_group === systemIds['role:everyone'];
      result.push({
        id: group.id, name: group.name, memberIds: graph.recursiveMembers(group.id, users),
        canMention: everyone || graph.settingContains(sender, group.can_mention_group),
      });
    }
    return result;
  }
}

