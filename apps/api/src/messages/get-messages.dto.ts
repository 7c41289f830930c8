import { BoolParam, IntParam, JsonParam, StringParam } from '../http/params/param.decorators';
import { shapes } from '../http/params/json-shapes';

/** GET /messages (zerver/views/message_fetch.py get_messages_backend). */
export class GetMessagesDto {
  @StringParam({ optional: true, description: 'A message id, `newest`, `oldest` or `first_unread`.' })
  anchor?: string;

  @BoolParam({ optional: true, description: 'Deprecated form of anchor=first_unread.' })
  use_first_unread_anchor?: boolean;

  @BoolParam({ optional: true })
  include_anchor?: boolean;

  @IntParam({ optional: true, min: 0 })
  num_before?: number;

  @IntParam({ optional: true, min: 0 })
  num_after?: number;

  @JsonParam(shapes.list(shapes.any()), { optional: true, description: 'Narrow terms: {operator, operand, negated} or [operator, operand].' })
  narrow?: unknown[];

  @JsonParam(shapes.list(shapes.int({ min: 0 })), { optional: true })
  message_ids?: number[];

  @BoolParam({ optional: true })
  apply_markdown?: boolean;

  @BoolParam({ optional: true })
  client_gravatar?: boolean;

  @BoolParam({ optional: true })
  allow_empty_topic_name?: boolean;
}

/** GET /messages/{message_id}. */
export class GetMessageDto {
  @BoolParam({ optional: true })
  apply_markdown?: boolean;

  @BoolParam({ optional: true })
  allow_empty_topic_name?: boolean;
}

/** GET /messages/matches_narrow (messages_in_narrow_backend). */
export class MatchesNarrowDto {
  @JsonParam(shapes.list(shapes.int()), { description: 'The message ids to check.' })
  msg_ids!: number[];

  @JsonParam(shapes.list(shapes.any()), { description: 'Narrow terms, as for GET /messages.' })
  narrow!: unknown[];
}
