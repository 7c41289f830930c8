import { Controller, Delete, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RemoveProfileDataCommand, UpdateProfileDataCommand } from '@app/application';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { RemoveProfileDataDto, UpdateProfileDataDto } from './custom-profile-fields.dto';

/** ≈ update_user_custom_profile_data / remove_user_custom_profile_data: a user's own values. */
@Controller('api/v1/users/me/profile_data')
export class ProfileDataController {
  constructor(private readonly commands: CommandBus) {}

  @Patch()
  @HumansOnly()
  @Summary('Set values of your custom profile fields.')
  async update(@CurrentUser() { actor, user }: AuthenticatedUser, @Params() p: UpdateProfileDataDto) {
    await this.commands.execute(new UpdateProfileDataCommand({ actor }, user.user_id, p.data));
    return {};
  }

  @Delete()
  @HumansOnly()
  @Summary('Remove values of your custom profile fields.')
  async remove(@CurrentUser() { actor, user }: AuthenticatedUser, @Params() p: RemoveProfileDataDto) {
    await this.commands.execute(new RemoveProfileDataCommand({ actor }, user.user_id, p.data));
    return {};
  }
}
