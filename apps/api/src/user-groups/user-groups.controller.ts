import { Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateUserGroupCommand,
  DeactivateUserGroupCommand,
  UpdateUserGroupCommand,
  UpdateUserGroupMembersCommand,
  UpdateUserGroupSubgroupsCommand,
  UserGroupQueries,
  UserQueries,
} from '@app/application';
import {
  type Actor,
  GroupSettingFormatError,
  GuestUsersNotAllowedError,
  InvalidUserGroupError,
  NoSuchUserError,
  USER_GROUP_SETTING_NAMES,
  type UserGroupSettingChange,
  type UserGroupSettingName,
  UserIsDeactivatedError,
} from '@app/domain';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import {
  CreateUserGroupDto,
  GetUserGroupMembersDto,
  GetUserGroupsDto,
  GetUserGroupSubgroupsDto,
  groupSettingValue,
  UpdateUserGroupDto,
  UpdateUserGroupMembersDto,
  UpdateUserGroupSubgroupsDto,
} from './user-groups.dto';

/** A PATCH setting: a GroupSettingChangeRequest `{"new": …, "old": …}`, nothing else. */
function settingChange(setting: UserGroupSettingName, value: unknown): UserGroupSettingChange {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('new' in value)) throw new GroupSettingFormatError(setting);
  const request = value as { new: unknown; old?: unknown };
  return {
    new: groupSettingValue.parse(request.new, `${setting}.new`),
    old: request.old === undefined ? undefined : groupSettingValue.parse(request.old, `${setting}.old`),
  };
}

/** require_member_or_admin: guests are refused (bots are, by @HumansOnly, before this). */
function refuseGuests(actor: Actor): void {
  if (actor.role === 'guest') throw new GuestUsersNotAllowedError();
}

/**
 * ≈ zerver/views/user_groups.py. Every route but deactivation is require_member_or_admin: no
 * guests ("Not allowed for guest users", checked first by the decider for changes) and no bots
 * ("This endpoint does not accept bot requests."). Deactivation checks can_manage_group only.
 */
@Controller('api/v1')
export class UserGroupsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly groups: UserGroupQueries,
    private readonly users: UserQueries,
  ) {}

  @Post('user_groups/create')
  @HumansOnly()
  @Summary('Create a user group (the organization\'s can_create_groups); answers its id.')
  async create(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: CreateUserGroupDto) {
    const settings: Partial<Record<UserGroupSettingName, CreateUserGroupDto[UserGroupSettingName]>> = {};
    for (const setting of USER_GROUP_SETTING_NAMES) if (params[setting] !== undefined) settings[setting] = params[setting];
    const { groupId } = await this.commands.execute(
      new CreateUserGroupCommand({ actor }, {
        name: params.name, description: params.description, members: params.members, subgroups: params.subgroups ?? [],
        settings: settings as Record<UserGroupSettingName, NonNullable<CreateUserGroupDto[UserGroupSettingName]>>,
      }),
    );
    return { group_id: groupId };
  }

  @Get('user_groups')
  @HumansOnly()
  @Summary('The organization\'s user groups, system groups first, by id.')
  async list(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: GetUserGroupsDto) {
    refuseGuests(actor);
    return { user_groups: await this.groups.list(actor.realmId, { includeDeactivated: params.include_deactivated_groups ?? false }) };
  }

  @Patch('user_groups/:user_group_id')
  @HumansOnly()
  @Summary('Rename, describe, change the permissions of, or reactivate a user group (its managers).')
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_group_id') rawId: string, @Params() params: UpdateUserGroupDto) {
    const groupId = intPathParam(rawId);
    const settings: Partial<Record<UserGroupSettingName, UserGroupSettingChange>> = {};
    for (const setting of USER_GROUP_SETTING_NAMES) if (params[setting] !== undefined) settings[setting] = settingChange(setting, params[setting]);
    await this.commands.execute(
      new UpdateUserGroupCommand({ actor }, groupId, { name: params.name, description: params.description, settings, deactivated: params.deactivated }),
    );
    return {};
  }

  @Post('user_groups/:user_group_id/deactivate')
  @Summary('Deactivate a user group no active group uses (its managers).')
  async deactivate(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_group_id') rawId: string) {
    await this.commands.execute(new DeactivateUserGroupCommand({ actor }, intPathParam(rawId)));
    return {};
  }

  @Post('user_groups/:user_group_id/members')
  @HumansOnly()
  @Summary('Add or remove members (and subgroups) of a user group.')
  async updateMembers(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_group_id') rawId: string, @Params() params: UpdateUserGroupMembersDto) {
    await this.commands.execute(
      new UpdateUserGroupMembersCommand({ actor }, intPathParam(rawId), {
        add: params.add ?? [], delete: params.delete ?? [], addSubgroups: params.add_subgroups ?? [], deleteSubgroups: params.delete_subgroups ?? [],
      }),
    );
    return {};
  }

  @Post('user_groups/:user_group_id/subgroups')
  @HumansOnly()
  @Summary('Add or remove direct subgroups of a user group.')
  async updateSubgroups(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_group_id') rawId: string, @Params() params: UpdateUserGroupSubgroupsDto) {
    await this.commands.execute(new UpdateUserGroupSubgroupsCommand({ actor }, intPathParam(rawId), { add: params.add ?? [], delete: params.delete ?? [] }));
    return {};
  }

  @Get('user_groups/:user_group_id/members')
  @HumansOnly()
  @Summary('The members of a user group, through subgroups too unless direct_member_only.')
  async members(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_group_id') rawId: string, @Params() params: GetUserGroupMembersDto) {
    refuseGuests(actor);
    const members = await this.groups.members(actor.realmId, intPathParam(rawId), params.direct_member_only ?? false);
    if (members === null) throw new InvalidUserGroupError();
    return { members };
  }

  @Get('user_groups/:user_group_id/members/:user_id')
  @HumansOnly()
  @Summary('Whether a user is a member of a user group.')
  async isMember(
    @CurrentUser() { actor }: AuthenticatedUser,
    @Param('user_group_id') rawId: string,
    @Param('user_id') rawUserId: string,
    @Params() params: GetUserGroupMembersDto,
  ) {
    refuseGuests(actor);
    const groupId = intPathParam(rawId);
    const userId = intPathParam(rawUserId);
    const members = await this.groups.members(actor.realmId, groupId, params.direct_member_only ?? false);
    if (members === null) throw new InvalidUserGroupError();
    const user = await this.users.byId(actor.realmId, userId);
    if (!user) throw new NoSuchUserError();
    if (!user.is_active) throw new UserIsDeactivatedError();
    return { is_user_group_member: members.includes(userId) };
  }

  @Get('user_groups/:user_group_id/subgroups')
  @HumansOnly()
  @Summary('The subgroups of a user group, recursively unless direct_subgroup_only.')
  async subgroups(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_group_id') rawId: string, @Params() params: GetUserGroupSubgroupsDto) {
    refuseGuests(actor);
    const subgroups = await this.groups.subgroups(actor.realmId, intPathParam(rawId), params.direct_subgroup_only ?? false);
    if (subgroups === null) throw new InvalidUserGroupError();
    return { subgroups };
  }
}
