import { BoolParam, IntParam, JsonParam, StringParam } from '../http/params/param.decorators';
import { type Shape, shapes } from '../http/params/json-shapes';

/** `Json[list[NarrowParameter] | None]`: required, `null` meaning no narrow. */
const narrowList: Shape<unknown[] | null> = {
  describe: { type: 'array', nullable: true, items: {} },
  parse: (value, path) => (value === null ? null : shapes.list(shapes.any()).parse(value, path)),
};

/** POST /messages/flags/narrow (zerver/views/message_flags.py update_message_flags_for_narrow). */
export class UpdateMessageFlagsForNarrowDto {
  @StringParam({ description: 'A message id, `newest`, `oldest` or `first_unread`.' })
  anchor!: string;

  @BoolParam({ optional: true, description: 'Default true; the anchor can only be left out at an end of the range.' })
  include_anchor?: boolean;

  @IntParam({ min: 0, description: 'Reduced by the server so that at most 5,000 messages are processed.' })
  num_before!: number;

  @IntParam({ min: 0 })
  num_after!: number;

  @JsonParam(narrowList, { description: 'Narrow terms, as for GET /messages; `[]` is every message.' })
  narrow!: unknown[] | null;

  @StringParam({ description: '`add` or `remove`.' })
  op!: string;

  @StringParam({ description: '`read`, `starred` or `collapsed`.' })
  flag!: string;
}

/** POST /messages/flags (update_message_flags). */
export class UpdateMessageFlagsDto {
  @JsonParam(shapes.list(shapes.int()))
  messages!: number[];

  @StringParam()
  op!: string;

  @StringParam()
  flag!: string;
}

/** POST /mark_stream_as_read. */
export class MarkStreamAsReadDto {
  @IntParam()
  stream_id!: number;
}

/** POST /mark_topic_as_read. */
export class MarkTopicAsReadDto {
  @IntParam()
  stream_id!: number;

  @StringParam({ description: 'The empty-topic display name (`realm_empty_topic_display_name`) means the empty topic.' })
  topic_name!: string;
}
