import { DEFAULT_INVITATION_VALIDITY_MINUTES } from '@app/domain';
import { type Shape, shapes } from '../http/params/json-shapes';
import { BoolParam, JsonParam, StringParam } from '../http/params/param.decorators';

/** Json[int | None]. */
const intOrNull: Shape<number | null> = {
  describe: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
  parse: (value, p) => (value === null ? null : shapes.int().parse(value, p)),
};

/** What both kinds of invitation take (invite_users_backend, generate_multiuse_invite_backend). */
class InvitationTermsDto {
  @JsonParam(shapes.int(), { optional: true, description: 'The role of the invited: 100 owner, 200 administrator, 300 moderator, 400 member (default), 600 guest.' })
  invite_as?: number;

  @JsonParam(intOrNull, { optional: true, description: `Minutes until the link expires; null: never (default ${DEFAULT_INVITATION_VALIDITY_MINUTES}, ten days).` })
  invite_expires_in_minutes?: number | null;

  @JsonParam(shapes.list(shapes.int()), { optional: true, description: 'Named user groups the new account joins.' })
  group_ids?: number[];

  @BoolParam({ optional: true, description: "Whether the new account also joins the organization's default channels (default false)." })
  include_realm_default_subscriptions?: boolean;
}

/** POST /invites. */
export class InviteUsersDto extends InvitationTermsDto {
  @StringParam({ description: 'The addresses to invite, separated by commas or newlines (`Name <address>` accepted).' })
  invitee_emails!: string;

  @JsonParam(shapes.list(shapes.int()), { description: 'Channels the new accounts join (may be empty).' })
  stream_ids!: number[];

  @BoolParam({ optional: true, description: 'Whether the inviter is told when someone accepts (default true).' })
  notify_referrer_on_join?: boolean;
}

/** POST /invites/multiuse. */
export class CreateMultiuseInvitationDto extends InvitationTermsDto {
  @JsonParam(shapes.list(shapes.int()), { optional: true, description: 'Channels the new accounts join (default none).' })
  stream_ids?: number[];
}
