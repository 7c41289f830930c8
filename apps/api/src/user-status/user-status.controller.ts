import { Controller, Get, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { UpdateUserStatusCommand, UserQueries, UserStatusQueries } from '@app/application';
import { NoSuchUserError, UserIsDeactivatedError } from '@app/domain';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { UpdateOwnUserStatusDto, UpdateUserStatusDto } from './user-status.dto';

/** ≈ zerver/views/presence.py update_user_status_backend, update_user_status_admin, get_status_backend. */
@Controller('api/v1/users')
export class UserStatusController {
  constructor(
    private readonly commands: CommandBus,
    private readonly statuses: UserStatusQueries,
    private readonly users: UserQueries,
  ) {}

  @Post('me/status')
  @HumansOnly()
  @Summary('Set your status: text, emoji, and (deprecated) away.')
  updateOwn(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateOwnUserStatusDto) {
    return this.commands.execute(
      new UpdateUserStatusCommand({ actor }, {
        away: params.away, statusText: params.status_text, emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type,
      }),
    );
  }

  @Post(':user_id/status')
  @Summary('Set another user\'s status (administrators, feature level 407).')
  updateOther(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_id') rawId: string, @Params() params: UpdateUserStatusDto) {
    const userId = intPathParam(rawId);
    return this.commands.execute(
      new UpdateUserStatusCommand({ actor }, { statusText: params.status_text, emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type }, userId),
    );
  }

  @Get(':user_id/status')
  @Summary('A user\'s status.')
  async get(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_id') rawId: string) {
    // access_user_by_id(allow_bots=False, for_admin=False).
    const user = await this.users.byId(actor.realmId, intPathParam(rawId));
    if (!user || user.is_bot) throw new NoSuchUserError();
    if (!user.is_active) throw new UserIsDeactivatedError();
    return { status: await this.statuses.statusOf(user.user_id) };
  }
}
