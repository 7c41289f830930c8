import { BoolParam, IntParam, JsonParam } from '../http/params/param.decorators';
import { shapes } from '../http/params/json-shapes';

/** POST /register parameters (zerver/views/events_register.py events_register_backend). */
export class RegisterDto {
  @BoolParam({ optional: true, description: 'Whether the client can compute gravatars itself.' })
  apply_markdown?: boolean;

  @BoolParam({ optional: true })
  client_gravatar?: boolean;

  @JsonParam(shapes.list(shapes.string()), { optional: true, description: 'Event types to receive.' })
  event_types?: string[];

  @JsonParam(shapes.list(shapes.string()), { optional: true, description: 'Initial state to fetch.' })
  fetch_event_types?: string[];

  @JsonParam(shapes.list(shapes.list(shapes.string())), { optional: true, description: 'Only message events matching these [operator, operand] terms.' })
  narrow?: string[][];

  @BoolParam({ optional: true })
  all_public_streams?: boolean;

  @JsonParam(shapes.dict(shapes.any()), { optional: true })
  client_capabilities?: Record<string, unknown>;

  @BoolParam({ optional: true })
  include_subscribers?: boolean;

  @BoolParam({ optional: true })
  slim_presence?: boolean;

  @IntParam({ optional: true, min: 0, description: 'Seconds an idle queue is kept.' })
  queue_lifespan_secs?: number;

  @IntParam({ optional: true, min: 0 })
  presence_history_limit_days?: number;

  @IntParam({ optional: true, description: 'Only presence changed after this presence_last_update_id.' })
  presence_last_update_id?: number;
}
