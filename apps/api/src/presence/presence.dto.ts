import { BoolParam, IntParam, StringParam } from '../http/params/param.decorators';

/** POST /users/me/presence (update_active_status_backend). */
export class UpdatePresenceDto {
  @StringParam({ description: '"active" (the user interacted recently) or "idle".' })
  status!: string;

  @BoolParam({ optional: true, description: 'Only record the ping; answer without the presence data.' })
  ping_only?: boolean;

  @BoolParam({ optional: true, description: 'Whether the user interacted since the last ping (accepted; activity intervals are not kept).' })
  new_user_input?: boolean;

  @BoolParam({ optional: true, description: 'Deprecated: the modern shape keyed by user id (implied by last_update_id).' })
  slim_presence?: boolean;

  @IntParam({ optional: true, description: 'The presence_last_update_id of the previous answer: only what changed since (modern shape).' })
  last_update_id?: number;

  @IntParam({ optional: true, min: 0, description: 'Only users connected within this many days (default 14).' })
  history_limit_days?: number;
}
