import { Controller, Delete, Get, Inject, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  APP_CONFIG,
  ChangeUserFullNameCommand,
  ChangeUserRoleCommand,
  CreateUserCommand,
  CustomProfileFieldQueries,
  DeactivateUserCommand,
  formatOwnUser,
  formatUser,
  isSystemBot,
  passwordPolicy,
  type ProfileDataValue,
  ReactivateUserCommand,
  RemoveProfileDataCommand,
  UpdateProfileDataCommand,
  type UserDocument,
  UserQueries,
} from '@app/application';
import type { AppConfig } from '@app/config';
import { checkFullName, DomainError, isStrongEnoughPassword, NoSuchUserError, roleFromValue } from '@app/domain';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { SerializedResult } from '../http/envelope';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { CreateUserDto, DeactivateUserDto, GetUsersDto, UpdateUserDto } from './users.dto';

/** GET /users/me's answer by the caller's (frozen) user document. */
const ownUsers = new WeakMap<UserDocument, SerializedResult>();

/** ≈ zerver/views/users.py */
@Controller('api/v1/users')
export class UsersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly users: UserQueries,
    private readonly profileFields: CustomProfileFieldQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * get_users_for_api's include_custom_profile_fields: every human's `profile_data` (`{}` without
   * values; bots get none), or nothing when not asked.
   */
  private async profileDataOf(realmId: number, include: boolean | undefined): Promise<((userId: number) => Record<string, ProfileDataValue>) | null> {
    if (include !== true) return null;
    const byUser = await this.profileFields.profileData(realmId);
    return (userId) => (byUser.get(userId) ?? {}) as Record<string, ProfileDataValue>;
  }

  @Get()
  @Summary('All users of the organization, bots and deactivated accounts included (not the system bots).')
  async list(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: GetUsersDto) {
    // The organization's users; the system bots are Zulip's cross-realm bots, not members.
    const [users, profileData] = await Promise.all([this.users.list(actor.realmId), this.profileDataOf(actor.realmId, params.include_custom_profile_fields)]);
    return {
      members: users.filter((user) => !isSystemBot(user)).map((user) => formatUser(user, actor, profileData ? { profileData: profileData(user.user_id) } : {})),
    };
  }

  @Post()
  @RequireRole('administrator')
  @Summary('Create a user (administrators).')
  async create(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: CreateUserDto) {
    // create_user_backend's check_password_strength (any non-empty password on a development server).
    if (!isStrongEnoughPassword(params.password, passwordPolicy(this.config).minLength)) throw new DomainError('The password is too weak.');
    const { userId } = await this.commands.execute(
      new CreateUserCommand({ actor }, { email: params.email, fullName: params.full_name, role: 'member', password: params.password }),
    );
    return { user_id: userId };
  }

  @Get('me')
  @Summary('The authenticated user.')
  async me(@CurrentUser() { actor, user }: AuthenticatedUser, @Params() _params: GetUsersDto) {
    // Authentication read the account at the current state of the read models. Its cached user
    // document is frozen and replaced (never changed) when the account changes, and the answer
    // depends on it alone: serialized once per document (issue #23).
    if (!Object.isFrozen(user) || actor.userId !== user.user_id) return formatOwnUser(user, actor);
    let answer = ownUsers.get(user);
    if (!answer) ownUsers.set(user, (answer = new SerializedResult(formatOwnUser(user, actor))));
    return answer;
  }

  @Delete('me')
  @Summary('Deactivate your own account.')
  async deactivateSelf(@CurrentUser() { actor, user }: AuthenticatedUser) {
    await this.commands.execute(new DeactivateUserCommand({ actor }, user.user_id, { target: 'self' }));
    return {};
  }

  /** Zulip routes `users/<int:user_id>` and `users/<email>` apart; one path parameter serves both here. */
  @Get(':user')
  @Summary('One user, by id or by email address.')
  async one(@CurrentUser() { actor }: AuthenticatedUser, @Param('user') key: string, @Params() params: GetUsersDto) {
    const user = /^[0-9]+$/.test(key)
      ? await this.users.byId(actor.realmId, intPathParam(key))
      : await this.users.byEmailAs(actor, key);
    if (!user) throw new NoSuchUserError();
    const profileData = await this.profileDataOf(actor.realmId, params.include_custom_profile_fields);
    return { user: formatUser(user, actor, profileData ? { profileData: profileData(user.user_id) } : {}) };
  }

  @Patch(':user_id')
  @RequireRole('administrator')
  @Summary('Change a user\'s name, role or custom profile field values (administrators; owners for the owner role).')
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_id') rawId: string, @Params() params: UpdateUserDto) {
    const userId = intPathParam(rawId);
    const target = await this.users.byId(actor.realmId, userId);
    // access_user_by_id(allow_bots=True, for_admin=True): bots too (an administrator may change a
    // bot's role or name), but not the system bots, which belong to no organization's users.
    if (!target || isSystemBot(target)) throw new NoSuchUserError();
    let role;
    if (params.role !== undefined) {
      role = roleFromValue(params.role);
      if (!role) throw new DomainError('Invalid role');
    }
    if (params.full_name === undefined && role === undefined && params.profile_data === undefined) throw new DomainError('No new data supplied');
    // Check the name before changing the role, so a bad request changes nothing.
    if (params.full_name !== undefined) checkFullName(params.full_name);
    if (role !== undefined) await this.commands.execute(new ChangeUserRoleCommand({ actor }, userId, role));
    if (params.full_name !== undefined) await this.commands.execute(new ChangeUserFullNameCommand({ actor }, userId, params.full_name));
    if (params.profile_data !== undefined) {
      // update_user_backend: an empty or null value removes the field's value; the rest are set.
      const removed = params.profile_data.filter((item) => item.value === null || item.value === '' || (Array.isArray(item.value) && item.value.length === 0));
      const set = params.profile_data.filter((item) => !removed.includes(item)) as { id: number; value: string | number[] }[];
      if (removed.length > 0) await this.commands.execute(new RemoveProfileDataCommand({ actor }, userId, removed.map((item) => item.id)));
      if (set.length > 0) await this.commands.execute(new UpdateProfileDataCommand({ actor }, userId, set));
    }
    return {};
  }

  @Delete(':user_id')
  @RequireRole('administrator')
  @Summary('Deactivate a user and their bots (administrators).')
  async deactivate(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_id') rawId: string, @Params() _params: DeactivateUserDto) {
    await this.commands.execute(new DeactivateUserCommand({ actor }, intPathParam(rawId), { target: 'user' }));
    return {};
  }

  @Post(':user_id/reactivate')
  @RequireRole('administrator')
  @Summary('Reactivate a deactivated user or bot (administrators).')
  async reactivate(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_id') rawId: string) {
    await this.commands.execute(new ReactivateUserCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}

