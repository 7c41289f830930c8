import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Actor, defaultRealmGroupSettings, NAMED_USER_GROUP_ID_BASE, userGroupsDecider, type UserGroupsCommand, userGroupsStream } from '@app/domain';
import { SystemGroupIds } from '../channels/system-group-ids';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { RealmQueries, realmGroupSettingsOf } from '../realms/realm-queries';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { UserQueries } from '../users/user-queries';
import {
  CreateUserGroupCommand,
  DeactivateUserGroupCommand,
  UpdateUserGroupCommand,
  UpdateUserGroupMembersCommand,
  UpdateUserGroupSubgroupsCommand,
} from './user-group.commands';

type Body<T extends UserGroupsCommand['type']> = Omit<
  Extract<UserGroupsCommand, { type: T }>['data'],
  'realmId' | 'actor' | 'now' | 'systemGroupIds' | 'users' | 'realmSettings'
>;

/**
 * The write path of every user-group command: the facts from other areas (the organization's
 * users and their roles, its system group ids, its can_create_groups and can_manage_all_groups),
 * then one append on `user_groups-<realmId>`.
 */
@Injectable()
export class UserGroupsWriter {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    private readonly users: UserQueries,
    private readonly realms: RealmQueries,
    private readonly groupIds: SystemGroupIds,
  ) {}

  async run<T extends UserGroupsCommand['type']>(actor: Actor, type: T, body: Body<T>): Promise<void> {
    const [users, realm, systemGroupIds] = await Promise.all([this.users.list(actor.realmId), this.realms.byId(actor.realmId), this.groupIds.forRealm(actor.realmId)]);
    const realmGroups = realm ? realmGroupSettingsOf(realm) : defaultRealmGroupSettings();
    const command = {
      type,
      data: {
        ...body, realmId: actor.realmId, actor, now: this.clock.now().toISOString(), systemGroupIds,
        users: Object.fromEntries(users.map((u) => [u.user_id, { role: u.role_name, isActive: u.is_active }])),
        realmSettings: { can_create_groups: realmGroups.can_create_groups, can_manage_all_groups: realmGroups.can_manage_all_groups },
      },
    } as unknown as UserGroupsCommand;
    const { position } = await this.runner.run(userGroupsDecider, userGroupsStream(actor.realmId), command);
    await this.projections.waitFor(position);
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
    await this.writer.run(actor, 'CreateUserGroup', { groupId, ...group });
    return { groupId };
  }
}

@CommandHandler(UpdateUserGroupCommand)
export class UpdateUserGroupHandler implements ICommandHandler<UpdateUserGroupCommand> {
  constructor(private readonly writer: UserGroupsWriter) {}

  execute({ context: { actor }, groupId, changes }: UpdateUserGroupCommand) {
    return this.writer.run(actor, 'UpdateUserGroup', { groupId, ...changes });
  }
}

@CommandHandler(UpdateUserGroupMembersCommand)
export class UpdateUserGroupMembersHandler implements ICommandHandler<UpdateUserGroupMembersCommand> {
  constructor(private readonly writer: UserGroupsWriter) {}

  execute({ context: { actor }, groupId, changes }: UpdateUserGroupMembersCommand) {
    return this.writer.run(actor, 'UpdateUserGroupMembers', { groupId, ...changes });
  }
}

@CommandHandler(UpdateUserGroupSubgroupsCommand)
export class UpdateUserGroupSubgroupsHandler implements ICommandHandler<UpdateUserGroupSubgroupsCommand> {
  constructor(private readonly writer: UserGroupsWriter) {}

  execute({ context: { actor }, groupId, changes }: UpdateUserGroupSubgroupsCommand) {
    return this.writer.run(actor, 'UpdateUserGroupSubgroups', { groupId, ...changes });
  }
}

@CommandHandler(DeactivateUserGroupCommand)
export class DeactivateUserGroupHandler implements ICommandHandler<DeactivateUserGroupCommand> {
  constructor(private readonly writer: UserGroupsWriter) {}

  execute({ context: { actor }, groupId }: DeactivateUserGroupCommand) {
    return this.writer.run(actor, 'DeactivateUserGroup', { groupId });
  }
}
