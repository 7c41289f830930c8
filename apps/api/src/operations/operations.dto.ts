import { BoolParam, IntParam, StringParam } from '../http/params/param.decorators';

/** POST /svc/projections/rebuild. */
export class RebuildProjectionsDto {
  @StringParam({ optional: true, maxLength: 100, description: 'A projection name from GET /svc/projections, or "all" (the default).' })
  projection?: string;
}

/** GET /svc/history: exactly one of the targets. */
export class HistoryDto {
  @StringParam({ optional: true, maxLength: 200, description: 'An event stream, e.g. message-42, channels-1, user_settings-9.' })
  stream?: string;

  @IntParam({ optional: true, min: 1, description: 'A message: its edits, moves and deletion.' })
  message_id?: number;

  @IntParam({ optional: true, min: 1, description: 'A channel: its settings and subscriptions.' })
  channel_id?: number;

  @IntParam({ optional: true, min: 1, description: 'A user: account, role, settings, status and profile changes.' })
  user_id?: number;

  @BoolParam({ optional: true, description: 'true: the organization\'s settings.' })
  realm?: boolean;
}
