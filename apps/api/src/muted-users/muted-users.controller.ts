import { Controller, Delete, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MuteUserCommand, UnmuteUserCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';

/** ≈ zerver/views/muted_users.py. The list is part of `/register` (`muted_users`). */
@Controller('api/v1/users/me/muted_users')
export class MutedUsersController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':muted_user_id')
  @Summary('Mute a user (bots and deactivated users included).')
  async mute(@CurrentUser() { actor }: AuthenticatedUser, @Param('muted_user_id') rawId: string) {
    await this.commands.execute(new MuteUserCommand({ actor }, intPathParam(rawId)));
    return {};
  }

  @Delete(':muted_user_id')
  @Summary('Unmute a user.')
  async unmute(@CurrentUser() { actor }: AuthenticatedUser, @Param('muted_user_id') rawId: string) {
    await this.commands.execute(new UnmuteUserCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}
