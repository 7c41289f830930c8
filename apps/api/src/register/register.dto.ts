import { BoolParam, IntParam, JsonParam, TextParam } from '../http/params/param.decorators';
import { type Shape, shapes } from '../http/params/json-shapes';
import { decodeJsonParam } from '../http/params/parse-params';

/**
 * `idle_queue_timeout` (Zulip 12.0, feature level 481): a positive number of seconds (JSON) or
 * "mobile" — JSON-encoded as zulip-flutter sends it (`"mobile"`), or bare as the Python bindings
 * send strings. Anything else: "Invalid idle_queue_timeout" ("… is not valid JSON" for text that
 * is neither).
 */
const idleQueueTimeoutChoices = shapes.union<number | 'mobile'>(shapes.int({ min: 1 }), shapes.literal(['mobile'] as const));
export const idleQueueTimeoutShape: Shape<number | 'mobile'> = {
  describe: idleQueueTimeoutChoices.describe,
  parse: (value, name) => {
    const text = String(value);
    if (text === 'mobile') return 'mobile';
    return idleQueueTimeoutChoices.parse(decodeJsonParam(text, name), name);
  },
};

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

  @TextParam(idleQueueTimeoutShape, {
    optional: true,
    description:
      'How long the queue is kept without a poll: seconds (at most 7 days; more is capped), or "mobile" (12 hours). Default 10 minutes. The answer reports it as idle_queue_timeout_secs.',
  })
  idle_queue_timeout?: number | 'mobile';

  @IntParam({ optional: true, min: 0, description: 'Older name: seconds an idle queue is kept (clamped to [10 minutes, 7 days]); idle_queue_timeout wins.' })
  queue_lifespan_secs?: number;

  @IntParam({ optional: true, min: 0 })
  presence_history_limit_days?: number;

  @IntParam({ optional: true, description: 'Only presence changed after this presence_last_update_id.' })
  presence_last_update_id?: number;
}
