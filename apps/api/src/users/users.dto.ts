import { BoolParam, IntParam, StringParam } from '../http/params/param.decorators';

export class GetUsersDto {
  @BoolParam({ optional: true, description: 'Let the client compute gravatar URLs (default true).' })
  client_gravatar?: boolean;

  @BoolParam({ optional: true, description: 'Include custom profile field values.' })
  include_custom_profile_fields?: boolean;
}

export class CreateUserDto {
  @StringParam({ description: 'The new account\'s email address.' })
  email!: string;

  @StringParam({ description: 'Initial password.' })
  password!: string;

  @StringParam({ description: 'Display name.' })
  full_name!: string;
}

export class UpdateUserDto {
  @StringParam({ optional: true, description: 'New display name.' })
  full_name?: string;

  @IntParam({ optional: true, description: 'Zulip role value: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.' })
  role?: number;
}

export class DeactivateUserDto {
  @StringParam({ optional: true, maxLength: 2000, description: 'Comment for the notification email to the deactivated user.' })
  deactivation_notification_comment?: string;
}
