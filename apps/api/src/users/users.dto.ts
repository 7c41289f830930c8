import { type Shape, shapes } from '../http/params/json-shapes';
import { InvalidParamError } from '../http/params/param.errors';
import { BoolParam, IntParam, JsonParam, StringParam } from '../http/params/param.decorators';

/** JSON null (a `profile_data` value that removes the field's value). */
const jsonNull: Shape<null> = {
  describe: { type: 'null' },
  parse: (value, path) => {
    if (value !== null) throw new InvalidParamError(`${path} is not null`);
    return null;
  },
};

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

  @JsonParam(shapes.list(shapes.object({ id: shapes.int(), value: shapes.union<unknown>(shapes.string(), shapes.list(shapes.int()), jsonNull) })), {
    optional: true,
    description: 'Custom profile field values to set: [{"id": field id, "value": text, user ids, or null / "" to remove the value}].',
  })
  profile_data?: { id: number; value: string | number[] | null }[];
}

export class DeactivateUserDto {
  @StringParam({ optional: true, maxLength: 2000, description: 'Comment for the notification email to the deactivated user.' })
  deactivation_notification_comment?: string;
}
