import { BoolParam, IntParam, StringParam } from '../http/params/param.decorators';

/** POST /users/me/presence (update_active_status_backend). */
export class UpdatePresenceDto {
  @StringParam({ description: '"active" (the user interacted recently) or "idle".' })
  status!: string;

  @BoolParam({ optional: true, description: 'Only record the ping; answer without the presence data.' })
  ping_only?: boolean;

  @BoolParam({ optional: true, description: 'Whether the user interacted since the last ping (accepted; activity intervals, kept by Zulip for analytics, are not).' })
  new_user_input?: boolean;

  @BoolParam({ optional: true, description: 'Deprecated: the modern shape keyed by user id (implied by last_update_id).' })
  slim_presence?: boolean;

  @IntParam({ optional: true, description: 'The presence_last_update_id of the previous answer: only what changed since (modern shape).' })
  last_update_id?: number;

  @IntParam({ optional: true, description: 'Only users connected within this many days (default 14; 0: none). Ignored with a last_update_id above 0.' })
  history_limit_days?: number;
}

/** GET /users/{user_id_or_email}/presence (get_presence_backend). */
export class UserPresenceDto {
  @BoolParam({ optional: true, description: 'The modern shape ({active_timestamp, idle_timestamp}) instead of the legacy one.' })
  slim_presence?: boolean;
}
