import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Actor, defaultRealmGroupSettings, NAMED_USER_GROUP_ID_BASE, silentMentionSyntax, type UserGroupEvent, userGroupsDecider, type UserGroupsCommand, userGroupsStream } from '@app/domain';
import { SystemGroupIds } from '../shared/system-group-ids';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { RealmQueries, realmGroupSettingsOf } from '../realms/realm.queries';
import { type CommandMeta, DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { UserQueries } from '../users/user.queries';
import { GroupMembershipNotices } from './group-membership-notices';
import { UserGroupQueries } from './user-group.queries';
import {
  CreateUserGroupCommand,
  DeactivateUserGroupCommand,
  UpdateUserGroupCommand,
  UpdateUserGroupMembersCommand,
  UpdateUserGroupSubgroupsCommand,
} from './user-group.command';

/** What every user-group command carries besides its own fields: who, when, and the facts from other areas. */
type GroupFacts = CommandMeta & Pick<UserGroupsCommand['data'], 'systemGroupIds' | 'users' | 'realmSettings'>;

/** The user-group commands: one append on `user_groups-<realmId>`. */
const userGroupsHandler = DeciderCommandHandler({ ...userGroupsDecider, mapToStreamId: ({ data }) => userGroupsStream(data.realmId) });

/**
 * The write path of every user-group command: the facts from other areas (the organization's
 * users and their roles, its system group ids, its can_create_groups and can_manage_all_groups),
 * then the command on `user_groups-<realmId>`.
 */
@Injectable()
export class UserGroupsWriter {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    private readonly groupIds: SystemGroupIds,
  ) {}

  async run(actor: Actor, build: (facts: GroupFacts) => UserGroupsCommand): Promise<UserGroupEvent[]> {
    const [users, realm, systemGroupIds] = await Promise.all([this.users.list(actor.realmId), this.realms.byId(actor.realmId), this.groupIds.forRealm(actor.realmId)]);
    const realmGroups = realm ? realmGroupSettingsOf(realm) : defaultRealmGroupSettings();
    const { newEvents } = await userGroupsHandler(this.commands, actor, (meta) =>
      build({
        ...meta,
        systemGroupIds,
        users: Object.fromEntries(users.map((u) => [u.user_id, { role: u.role_name, isActive: u.is_active }])),
        realmSettings: { can_create_groups: realmGroups.can_create_groups, can_manage_all_groups: realmGroups.can_manage_all_groups },
      }),
    );
    return newEvents;
  }

  now(): string {
    return this.clock.now().toISOString();
  }
}

@CommandHandler(CreateUserGroupCommand)
export class CreateUserGroupHandler implements ICommandHandler<CreateUserGroupCommand> {
  constructor(
    private readonly writer: UserGroupsWriter,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context: { actor }, group }: CreateUserGroupCommand) {
    const groupId = NAMED_USER_GROUP_ID_BASE + (await this.ids.next('user_group'));
    await this.writer.run(actor, (facts) => ({ type: 'CreateUserGroup', data: { groupId, ...group, ...facts } }));
    return { groupId };
  }
}

@CommandHandler(UpdateUserGroupCommand)
export class UpdateUserGroupHandler implements ICommandHandler<UpdateUserGroupCommand> {
  constructor(private readonly writer: UserGroupsWriter) {}

  async execute({ context: { actor }, groupId, changes }: UpdateUserGroupCommand) {
    await this.writer.run(actor, (facts) => ({ type: 'UpdateUserGroup', data: { groupId, ...changes, ...facts } }));
  }
}

/**
 * notify_for_user_group_subscription_changes: Notification Bot tells each user someone else added
 * to or removed from the group (bots and the acting user are not told).
 */
@CommandHandler(UpdateUserGroupMembersCommand)
export class UpdateUserGroupMembersHandler implements ICommandHandler<UpdateUserGroupMembersCommand> {
  constructor(
    private readonly writer: UserGroupsWriter,
    private readonly users: UserQueries,
    private readonly groups: UserGroupQueries,
    private readonly notices: GroupMembershipNotices,
    private readonly projections: ProjectionWaiter,
  ) {}

  async execute({ context: { actor }, groupId, changes }: UpdateUserGroupMembersCommand): Promise<void> {
    const events = await this.writer.run(actor, (facts) => ({ type: 'UpdateUserGroupMembers', data: { groupId, ...changes, ...facts } }));
    if (actor.userId === null) return;
    const changed = events.flatMap((e) =>
      e.type === 'UserGroupMembersAdded' ? e.data.userIds.map((userId) => ({ userId, verb: 'added you to' }))
      : e.type === 'UserGroupMembersRemoved' ? e.data.userIds.map((userId) => ({ userId, verb: 'removed you from' }))
      : [],
    );
    if (changed.length === 0) return;
    const [acting, group] = await Promise.all([this.users.byId(actor.realmId, actor.userId), this.groups.byId(actor.realmId, groupId)]);
    if (!acting || !group) return;
    const notices: { userId: number; content: string }[] = [];
    for (const { userId, verb } of changed) {
      if (userId === actor.userId) continue;
      const user = await this.users.byId(actor.realmId, userId);
      if (!user || user.is_bot || !user.is_active) continue;
      notices.push({ userId, content: `${silentMentionSyntax({ userId: acting.user_id, fullName: acting.full_name })} ${verb} the group @_*${group.name}*.` });
    }
    await this.projections.waitFor(await this.notices.postDirect(actor.realmId, notices, this.writer.now()));
  }
}

@CommandHandler(UpdateUserGroupSubgroupsCommand)
export class UpdateUserGroupSubgroupsHandler implements ICommandHandler<UpdateUserGroupSubgroupsCommand> {
  constructor(private readonly writer: UserGroupsWriter) {}

  async execute({ context: { actor }, groupId, changes }: UpdateUserGroupSubgroupsCommand) {
    await this.writer.run(actor, (facts) => ({ type: 'UpdateUserGroupSubgroups', data: { groupId, ...changes, ...facts } }));
  }
}

@CommandHandler(DeactivateUserGroupCommand)
export class DeactivateUserGroupHandler implements ICommandHandler<DeactivateUserGroupCommand> {
  constructor(private readonly writer: UserGroupsWriter) {}

  async execute({ context: { actor }, groupId }: DeactivateUserGroupCommand) {
    await this.writer.run(actor, (facts) => ({ type: 'DeactivateUserGroup', data: { groupId, ...facts } }));
  }
}
