import { BoolParam, IntParam, StringParam } from '../http/params/param.decorators';

/** GET /events (zerver/tornado/views.py get_events_backend). */
export class GetEventsDto {
  @StringParam({ description: 'The queue POST /register returned.' })
  queue_id!: string;

  @IntParam({ optional: true, description: 'The newest event id already received; older events are acknowledged (pruned).' })
  last_event_id?: number;

  @BoolParam({ optional: true, description: 'Answer at once, even with no events.' })
  dont_block?: boolean;
}

/** DELETE /events. */
export class DeleteEventsDto {
  @StringParam({ description: 'The queue to delete.' })
  queue_id!: string;
}
