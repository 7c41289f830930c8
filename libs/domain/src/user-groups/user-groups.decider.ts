import type { SystemGroupName } from '../shared/system-groups';
import { InvalidUserGroupError, PreviousSettingValueMismatchedError } from '../realms/realm-messaging-settings';
import type { Actor, Role } from '../shared/actor';
import type { Decider } from '../shared/decider';
import { GuestUsersNotAllowedError } from '../subscriptions/subscriptions.errors';
import {
  AlreadySubgroupError,
  CannotDeactivateGroupInUseError,
  type DeactivationObjection,
  InsufficientPermissionError,
  InvalidUserGroupIdError,
  InvalidUserIdError,
  NoNewDataError,
  NothingToDoError,
  NotSubgroupError,
  SubgroupCycleError,
  UserAlreadyMemberError,
  UserGroupDeactivatedError,
  UserGroupNameInUseError,
  UserGroupIdInUseError,
  UserGroupSettingNotAllowedError,
  UserNotMemberError,
} from './user-groups.errors';
import type { UserGroupEvent } from './user-groups.events';
import { UserGroupGraph } from './user-groups.graph';
import { checkUserGroupName } from './user-groups.rules';
import {
  groupsNamedBy,
  normalizedAnonymousGroup,
  sameSettingValue,
  USER_GROUP_SETTING_NAMES,
  USER_GROUP_SETTINGS,
  type UserGroupSettingName,
  type UserGroupSettingValue,
} from './user-groups.settings';

/** Facts every user-group command is decided on, looked up by the handler. */
type Meta = {
  realmId: number;
  actor: Actor;
  now: string;
  /** The organization's system groups' ids (SystemGroupIds). */
  systemGroupIds: Record<SystemGroupName, number>;
  /** The users the request names, with their role and state; absent: no such user in the organization. */
  users: Record<number, { role: Role; isActive: boolean }>;
  /** The organization's can_create_groups and can_manage_all_groups (Realm.REALM_PERMISSION_GROUP_SETTINGS). */
  realmSettings: { can_create_groups: SystemGroupName; can_manage_all_groups: SystemGroupName };
};

/** POST /user_groups/create (add_user_group, check_add_user_group). The id comes from the handler. */
export type CreateUserGroup = {
  type: 'CreateUserGroup';
  data: Meta & {
    groupId: number;
    name: string;
    description: string;
    members: number[];
    subgroups: number[];
    settings: Partial<Record<UserGroupSettingName, UserGroupSettingValue>>;
  };
};

/** GroupSettingChangeRequest: the new value and, optionally, the value the client believes is current. */
export type UserGroupSettingChange = { new: UserGroupSettingValue; old?: UserGroupSettingValue };

/** PATCH /user_groups/{id} (edit_user_group): every change of one request in one append. */
export type UpdateUserGroup = {
  type: 'UpdateUserGroup';
  data: Meta & {
    groupId: number;
    name?: string;
    description?: string;
    settings: Partial<Record<UserGroupSettingName, UserGroupSettingChange>>;
    deactivated?: boolean;
  };
};

/** POST /user_groups/{id}/members (update_user_group_backend): users, and subgroups, to add and delete. */
export type UpdateUserGroupMembers = {
  type: 'UpdateUserGroupMembers';
  data: Meta & { groupId: number; add: number[]; delete: number[]; addSubgroups: number[]; deleteSubgroups: number[] };
};

/** POST /user_groups/{id}/subgroups (update_subgroups_of_user_group). */
export type UpdateUserGroupSubgroups = { type: 'UpdateUserGroupSubgroups'; data: Meta & { groupId: number; add: number[]; delete: number[] } };

/** POST /user_groups/{id}/deactivate (deactivate_user_group). */
export type DeactivateUserGroup = { type: 'DeactivateUserGroup'; data: Meta & { groupId: number } };

export type UserGroupsCommand = CreateUserGroup | UpdateUserGroup | UpdateUserGroupMembers | UpdateUserGroupSubgroups | DeactivateUserGroup;

export type NamedUserGroupState = {
  id: number;
  name: string;
  description: string;
  members: number[];
  subgroupIds: number[];
  settings: Record<UserGroupSettingName, UserGroupSettingValue>;
  deactivated: boolean;
};
/** The organization's named groups by id. */
export type UserGroupsState = { groups: Record<number, NamedUserGroupState> };

const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** The permission checks and lookups of one decision, over the state and the command's facts. */
class Context {
  readonly graph: UserGroupGraph;

  constructor(
    readonly state: UserGroupsState,
    readonly meta: Meta,
  ) {
    this.graph = new UserGroupGraph(
      Object.values(state.groups).map((g) => ({ id: g.id, members: g.members, subgroupIds: g.subgroupIds, deactivated: g.deactivated })),
      meta.systemGroupIds,
    );
  }

  get base() {
    return { realmId: this.meta.realmId, actorId: this.meta.actor.userId, at: this.meta.now };
  }

  /**
   * user_has_permission_for_group_setting: the actor is in the group a setting names; guests never
   * are for settings that may not be role:everyone (`allowEveryone` false). The operator may do anything.
   */
  can(value: UserGroupSettingValue, allowEveryone = false): boolean {
    const { actor } = this.meta;
    if (actor.role === 'operator') return true;
    if (actor.role === 'guest' && !allowEveryone) return false;
    return this.graph.settingContains({ userId: actor.userId ?? -1, role: actor.role }, value);
  }

  /** can_manage_all_groups, or the group's can_manage_group. */
  mayManage(group: NamedUserGroupState): boolean {
    return this.can(this.meta.systemGroupIds[this.meta.realmSettings.can_manage_all_groups]) || this.can(group.settings.can_manage_group);
  }

  /** require_member_or_admin (every change but deactivation, which only checks can_manage_group). */
  refuseGuests(): void {
    if (this.meta.actor.role === 'guest') throw new GuestUsersNotAllowedError();
  }

  /** access_user_group_for_update: a named group of this organization (system groups are never changed). */
  groupForUpdate(groupId: number): NamedUserGroupState {
    if (this.graph.systemName(groupId) !== undefined) throw new InsufficientPermissionError();
    const group = this.state.groups[groupId];
    if (!group) throw new InvalidUserGroupError();
    return group;
  }

  /** user_ids_to_users: active users of this organization (bots included). */
  checkUsers(ids: number[]): number[] {
    for (const id of ids) if (this.meta.users[id]?.isActive !== true) throw new InvalidUserIdError(id);
    return ascending(ids);
  }

  /** A group used as a subgroup or in a setting: of this organization and not deactivated. */
  checkUsableGroup(groupId: number, error: () => Error): void {
    if (!this.graph.has(groupId)) throw error();
    if (this.graph.isDeactivated(groupId)) throw new UserGroupDeactivatedError();
  }

  /** An anonymous group reduced as parse_group_setting_value reduces it (one subgroup: that group; nothing: nobody). */
  reduce(value: UserGroupSettingValue): UserGroupSettingValue {
    if (typeof value === 'number') return value;
    const group = normalizedAnonymousGroup(value);
    if (group.direct_members.length === 0 && group.direct_subgroups.length === 1) return group.direct_subgroups[0];
    if (group.direct_members.length === 0 && group.direct_subgroups.length === 0) return this.meta.systemGroupIds['role:nobody'];
    return group;
  }

  /** access_user_group_for_setting / parse_group_setting_value with the setting's configuration. */
  checkSetting(setting: UserGroupSettingName, value: UserGroupSettingValue): UserGroupSettingValue {
    const reduced = this.reduce(value);
    if (typeof reduced !== 'number') {
      this.checkUsers(reduced.direct_members);
      for (const id of reduced.direct_subgroups) this.checkUsableGroup(id, () => new InvalidUserGroupIdError(id));
      return reduced;
    }
    this.checkUsableGroup(reduced, () => new InvalidUserGroupError());
    const system = this.graph.systemName(reduced);
    if (system === 'role:internet') throw new UserGroupSettingNotAllowedError(setting, system);
    if (system === 'role:everyone' && !USER_GROUP_SETTINGS[setting].allowEveryone) throw new UserGroupSettingNotAllowedError(setting, system);
    return reduced;
  }

  nameTaken(name: string, exceptId?: number): boolean {
    return Object.values(this.state.groups).some((g) => g.id !== exceptId && g.name === name);
  }
}

function decideCreate(d: CreateUserGroup['data'], c: Context): UserGroupEvent[] {
  if (c.state.groups[d.groupId] !== undefined || Object.values(d.systemGroupIds).includes(d.groupId)) throw new UserGroupIdInUseError(d.groupId);
  c.refuseGuests();
  if (!c.can(d.systemGroupIds[d.realmSettings.can_create_groups])) throw new InsufficientPermissionError();
  const members = c.checkUsers(d.members);
  checkUserGroupName(d.name);
  const creator = d.actor.userId;
  const settings = {} as Record<UserGroupSettingName, UserGroupSettingValue>;
  for (const setting of USER_GROUP_SETTING_NAMES) {
    const requested = d.settings[setting];
    if (requested !== undefined) {
      settings[setting] = c.checkSetting(setting, requested);
      continue;
    }
    const fallback = USER_GROUP_SETTINGS[setting].defaultGroup;
    settings[setting] =
      fallback !== 'group_creator' ? d.systemGroupIds[fallback]
      : creator === null ? d.systemGroupIds['role:nobody']
      : { direct_members: [creator], direct_subgroups: [] };
  }
  // add_user_group creates the group, then adds the subgroups: a taken name is found first.
  if (c.nameTaken(d.name)) throw new UserGroupNameInUseError(d.name);
  for (const id of d.subgroups) c.checkUsableGroup(id, () => new InvalidUserGroupIdError(id));
  return [
    {
      type: 'UserGroupCreated',
      data: {
        realmId: d.realmId, groupId: d.groupId, name: d.name, description: d.description, members, subgroupIds: ascending(d.subgroups),
        settings, creatorId: creator, at: d.now,
      },
    },
  ];
}

/**
 * access_user_group_for_deactivation's objections, in its order: active supergroups, then active
 * groups whose settings name this group (directly or as a subgroup of an anonymous group).
 * Organization and channel settings name system groups only here, so they never object.
 */
function deactivationObjections(groupId: number, c: Context): DeactivationObjection[] {
  const objections: DeactivationObjection[] = [];
  const active = Object.values(c.state.groups).filter((g) => !g.deactivated && g.id !== groupId);
  const supergroups = active.filter((g) => g.subgroupIds.includes(groupId)).map((g) => g.id);
  if (supergroups.length > 0) objections.push({ type: 'subgroup', supergroup_ids: ascending(supergroups) });
  for (const group of active) {
    const settings = USER_GROUP_SETTING_NAMES.filter((s) => groupsNamedBy(group.settings[s]).includes(groupId));
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: group.id, settings });
  }
  return objections;
}

function decideDeactivate(group: NamedUserGroupState, c: Context): UserGroupEvent[] {
  // access_user_group_for_update without allow_deactivated: a deactivated group is refused first.
  if (group.deactivated) throw new UserGroupDeactivatedError();
  if (!c.mayManage(group)) throw new InsufficientPermissionError();
  const objections = deactivationObjections(group.id, c);
  if (objections.length > 0) throw new CannotDeactivateGroupInUseError(objections);
  return [{ type: 'UserGroupDeactivated', data: { ...c.base, groupId: group.id } }];
}

function decideUpdate(d: UpdateUserGroup['data'], c: Context): UserGroupEvent[] {
  c.refuseGuests();
  const changesSetting = Object.values(d.settings).some((v) => v !== undefined);
  if (d.name === undefined && d.description === undefined && !changesSetting && d.deactivated === undefined) throw new NoNewDataError();
  const group = c.groupForUpdate(d.groupId);
  if (!c.mayManage(group)) throw new InsufficientPermissionError();
  const base = { ...c.base, groupId: group.id };
  const events: UserGroupEvent[] = [];
  if (d.name !== undefined && d.name !== group.name) {
    checkUserGroupName(d.name);
    if (c.nameTaken(d.name, group.id)) throw new UserGroupNameInUseError(d.name);
    events.push({ type: 'UserGroupNameChanged', data: { ...base, oldName: group.name, newName: d.name } });
  }
  if (d.description !== undefined && d.description !== group.description) {
    events.push({ type: 'UserGroupDescriptionChanged', data: { ...base, oldDescription: group.description, newDescription: d.description } });
  }
  // edit_user_group's order: name, description, reactivation, then the settings. `deactivated:
  // true` changes nothing there (deactivation has its own route).
  if (d.deactivated === false && group.deactivated) events.push({ type: 'UserGroupReactivated', data: base });
  for (const setting of USER_GROUP_SETTING_NAMES) {
    const change = d.settings[setting];
    if (change === undefined) continue;
    const current = group.settings[setting];
    if (change.old !== undefined && !sameSettingValue(c.reduce(change.old), current)) throw new PreviousSettingValueMismatchedError();
    const next = c.checkSetting(setting, change.new);
    if (!sameSettingValue(next, current)) events.push({ type: 'UserGroupSettingChanged', data: { ...base, setting, oldValue: current, newValue: next } });
  }
  return events;
}

function decideAddMembers(group: NamedUserGroupState, userIds: number[], c: Context): UserGroupEvent[] {
  const self = c.meta.actor.userId;
  const onlySelf = userIds.length === 1 && userIds[0] === self;
  const allowed = c.mayManage(group) || c.can(group.settings.can_add_members_group) || (onlySelf && c.can(group.settings.can_join_group));
  if (!allowed) throw new InsufficientPermissionError();
  const ids = c.checkUsers(userIds);
  for (const id of userIds) if (group.members.includes(id)) throw new UserAlreadyMemberError(id);
  return [{ type: 'UserGroupMembersAdded', data: { ...c.base, groupId: group.id, userIds: ids } }];
}

function decideRemoveMembers(group: NamedUserGroupState, userIds: number[], c: Context): UserGroupEvent[] {
  const ids = c.checkUsers(userIds);
  const self = c.meta.actor.userId;
  const onlySelf = userIds.length === 1 && userIds[0] === self;
  const allowed = c.mayManage(group) || c.can(group.settings.can_remove_members_group) || (onlySelf && c.can(group.settings.can_leave_group, USER_GROUP_SETTINGS.can_leave_group.allowEveryone));
  if (!allowed) throw new InsufficientPermissionError();
  for (const id of userIds) if (!group.members.includes(id)) throw new UserNotMemberError(id);
  return [{ type: 'UserGroupMembersRemoved', data: { ...c.base, groupId: group.id, userIds: ids } }];
}

function decideAddSubgroups(group: NamedUserGroupState, subgroupIds: number[], c: Context): UserGroupEvent[] {
  if (!c.mayManage(group) && !c.can(group.settings.can_add_members_group)) throw new InsufficientPermissionError();
  const ids = ascending(subgroupIds);
  for (const id of ids) c.checkUsableGroup(id, () => new InvalidUserGroupIdError(id));
  for (const id of ids) if (group.subgroupIds.includes(id)) throw new AlreadySubgroupError(id);
  if (ids.some((id) => id === group.id || c.graph.recursiveSubgroups(id).includes(group.id))) throw new SubgroupCycleError(group.id);
  return [{ type: 'UserGroupSubgroupsAdded', data: { ...c.base, groupId: group.id, subgroupIds: ids } }];
}

/** remove_subgroups_from_group_backend: managers only (permission_setting="can_manage_group"). */
function decideRemoveSubgroups(group: NamedUserGroupState, subgroupIds: number[], c: Context): UserGroupEvent[] {
  if (!c.mayManage(group)) throw new InsufficientPermissionError();
  const ids = ascending(subgroupIds);
  for (const id of ids) c.checkUsableGroup(id, () => new InvalidUserGroupIdError(id));
  for (const id of ids) if (!group.subgroupIds.includes(id)) throw new NotSubgroupError(id);
  return [{ type: 'UserGroupSubgroupsRemoved', data: { ...c.base, groupId: group.id, subgroupIds: ids } }];
}

/**
 * Steps applied one after the other on the evolving state (Zulip's compose_views runs the add
 * then the delete in one transaction), every step checked before anything is appended.
 */
function sequentially(state: UserGroupsState, meta: Meta, groupId: number, steps: ((group: NamedUserGroupState, c: Context) => UserGroupEvent[])[]): UserGroupEvent[] {
  const events: UserGroupEvent[] = [];
  let current = state;
  for (const step of steps) {
    const c = new Context(current, meta);
    const decided = step(c.groupForUpdate(groupId), c);
    events.push(...decided);
    current = decided.reduce(userGroupsDecider.evolve, current);
  }
  return events;
}

/** The named user groups of one organization (stream `user_groups-<realmId>`). */
export const userGroupsDecider: Decider<UserGroupsCommand, UserGroupEvent, UserGroupsState> = {
  snapshot: { name: 'user_groups', version: 1 },
  initialState: () => ({ groups: {} }),

  decide: (command, state) => {
    const c = new Context(state, command.data);
    switch (command.type) {
      case 'CreateUserGroup':
        return decideCreate(command.data, c);
      case 'UpdateUserGroup':
        return decideUpdate(command.data, c);
      case 'DeactivateUserGroup':
        return decideDeactivate(c.groupForUpdate(command.data.groupId), c);
      case 'UpdateUserGroupMembers': {
        const d = command.data;
        c.refuseGuests();
        if (d.add.length + d.delete.length + d.addSubgroups.length + d.deleteSubgroups.length === 0) throw NothingToDoError.members();
        c.groupForUpdate(d.groupId);
        const steps: ((group: NamedUserGroupState, c: Context) => UserGroupEvent[])[] = [];
        if (d.add.length > 0) steps.push((g, cx) => decideAddMembers(g, d.add, cx));
        if (d.delete.length > 0) steps.push((g, cx) => decideRemoveMembers(g, d.delete, cx));
        if (d.addSubgroups.length > 0) steps.push((g, cx) => decideAddSubgroups(g, d.addSubgroups, cx));
        if (d.deleteSubgroups.length > 0) steps.push((g, cx) => decideRemoveSubgroups(g, d.deleteSubgroups, cx));
        return sequentially(state, d, d.groupId, steps);
      }
      case 'UpdateUserGroupSubgroups': {
        const d = command.data;
        c.refuseGuests();
        if (d.add.length + d.delete.length === 0) throw NothingToDoError.subgroups();
        c.groupForUpdate(d.groupId);
        const steps: ((group: NamedUserGroupState, c: Context) => UserGroupEvent[])[] = [];
        if (d.add.length > 0) steps.push((g, cx) => decideAddSubgroups(g, d.add, cx));
        if (d.delete.length > 0) steps.push((g, cx) => decideRemoveSubgroups(g, d.delete, cx));
        return sequentially(state, d, d.groupId, steps);
      }
    }
  },

  evolve: (state, event) => {
    const update = (groupId: number, patch: (g: NamedUserGroupState) => Partial<NamedUserGroupState>): UserGroupsState => {
      const group = state.groups[groupId];
      return group ? { groups: { ...state.groups, [groupId]: { ...group, ...patch(group) } } } : state;
    };
    switch (event.type) {
      case 'UserGroupCreated': {
        const d = event.data;
        return {
          groups: {
            ...state.groups,
            [d.groupId]: { id: d.groupId, name: d.name, description: d.description, members: d.members, subgroupIds: d.subgroupIds, settings: d.settings, deactivated: false },
          },
        };
      }
      case 'UserGroupNameChanged':
        return update(event.data.groupId, () => ({ name: event.data.newName }));
      case 'UserGroupDescriptionChanged':
        return update(event.data.groupId, () => ({ description: event.data.newDescription }));
      case 'UserGroupSettingChanged':
        return update(event.data.groupId, (g) => ({ settings: { ...g.settings, [event.data.setting]: event.data.newValue } }));
      case 'UserGroupMembersAdded':
        return update(event.data.groupId, (g) => ({ members: ascending([...g.members, ...event.data.userIds]) }));
      case 'UserGroupMembersRemoved':
        return update(event.data.groupId, (g) => ({ members: g.members.filter((id) => !event.data.userIds.includes(id)) }));
      case 'UserGroupSubgroupsAdded':
        return update(event.data.groupId, (g) => ({ subgroupIds: ascending([...g.subgroupIds, ...event.data.subgroupIds]) }));
      case 'UserGroupSubgroupsRemoved':
        return update(event.data.groupId, (g) => ({ subgroupIds: g.subgroupIds.filter((id) => !event.data.subgroupIds.includes(id)) }));
      case 'UserGroupDeactivated':
        return update(event.data.groupId, () => ({ deactivated: true }));
      case 'UserGroupReactivated':
        return update(event.data.groupId, () => ({ deactivated: false }));
      default:
        return state;
    }
  },
};
