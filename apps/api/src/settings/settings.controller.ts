import { Controller, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type SettingsChanges, UpdateOwnSettingsCommand, UpdateSettingsForUsersCommand } from '@app/application';
import { USER_SETTING_NAMES, type SettingProperty, type SettingValue } from '@app/domain';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { UpdateSettingsDto } from './settings.dto';

/** ≈ zerver/views/user_settings.py json_change_settings (@human_users_only). */
@Controller('api/v1/settings')
export class SettingsController {
  constructor(private readonly commands: CommandBus) {}

  @Patch()
  @HumansOnly()
  @Summary('Change your settings, name, address or password; administrators: other users\' settings.')
  update(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateSettingsDto) {
    return this.execute(actor, params);
  }

  @Patch('display')
  @HumansOnly()
  @Summary('Deprecated alias of PATCH /settings.')
  updateDisplay(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateSettingsDto) {
    return this.execute(actor, params);
  }

  @Patch('notifications')
  @HumansOnly()
  @Summary('Deprecated alias of PATCH /settings.')
  updateNotifications(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateSettingsDto) {
    return this.execute(actor, params);
  }

  private execute(actor: AuthenticatedUser['actor'], params: UpdateSettingsDto) {
    const settings: Partial<Record<SettingProperty, SettingValue>> = {};
    for (const name of USER_SETTING_NAMES) if (params[name] !== undefined) settings[name] = params[name] as SettingValue;
    if (params.timezone !== undefined) settings.timezone = params.timezone;
    const changes: SettingsChanges = {
      settings,
      fullName: params.full_name,
      email: params.email,
      oldPassword: params.old_password,
      newPassword: params.new_password,
    };
    if (params.target_users !== undefined) return this.commands.execute(new UpdateSettingsForUsersCommand({ actor }, params.target_users, changes));
    return this.commands.execute(new UpdateOwnSettingsCommand({ actor }, changes));
  }
}
