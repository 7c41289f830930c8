import { USER_SETTINGS, USER_SETTING_NAMES } from '@app/domain';
import type { TargetUsers } from '@app/application';
import { CheckedStringParam, JsonParam, StringParam } from '../http/params/param.decorators';
import { settingShape, targetUsers, timezone } from './settings.shapes';
import type { Shape } from '../http/params/json-shapes';

/**
 * PATCH /settings (and its deprecated aliases /settings/display, /settings/notifications):
 * the account fields below, then one optional parameter per setting of the catalog.
 */
export class UpdateSettingsDto {
  @StringParam({ optional: true, description: 'New name.' })
  full_name?: string;

  @StringParam({ optional: true, description: 'New address; it changes once the link sent to it is followed.' })
  email?: string;

  @StringParam({ optional: true, description: 'The current password, required with new_password.' })
  old_password?: string;

  @StringParam({ optional: true, description: 'A new password.' })
  new_password?: string;

  @CheckedStringParam(timezone, { optional: true, description: 'An IANA time zone name.' })
  timezone?: string;

  @JsonParam(targetUsers, { optional: true, description: 'Administrators: change these users\' settings instead (feature level 444).' })
  target_users?: TargetUsers;

  [setting: string]: unknown;
}

// One optional parameter per setting: JSON for booleans and integers, literal text for strings.
for (const name of USER_SETTING_NAMES) {
  const { encoding, shape } = settingShape(name, USER_SETTINGS[name]);
  const options = { optional: true, description: `The ${name.replace(/_/g, ' ')} setting.` };
  if (encoding === 'json') JsonParam(shape, options)(UpdateSettingsDto.prototype, name);
  else CheckedStringParam(shape as Shape<string>, options)(UpdateSettingsDto.prototype, name);
}
