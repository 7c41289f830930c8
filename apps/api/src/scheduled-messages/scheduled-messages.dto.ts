import { MESSAGE_TYPES, type MessageTypeParam } from '@app/domain';
import type { ScheduledTo } from '@app/application';
import { isInteger, type Shape } from '../http/params/json-shapes';
import { InvalidParamError } from '../http/params/param.errors';
import { BoolParam, EnumParam, JsonParam, StringParam } from '../http/params/param.decorators';

/**
 * `to: Json[int | list[int]]`: pydantic reports a value neither fits by the first member of the
 * union, so a list of emails is `to["int"] is not an integer` (test_scheduled_messages.py).
 */
const scheduledTo: Shape<ScheduledTo> = {
  describe: { oneOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] },
  parse: (value, p) => {
    if (isInteger(value)) return value;
    if (Array.isArray(value) && value.every(isInteger)) return value as number[];
    throw new InvalidParamError(`${p}["int"] is not an integer`);
  },
};

const timestamp = { describe: { type: 'integer' }, parse: (value: unknown, p: string) => {
  if (!isInteger(value)) throw new InvalidParamError(`${p} is not an integer`);
  return value;
} } satisfies Shape<number>;

/** POST /scheduled_messages (create_scheduled_message_backend). */
export class CreateScheduledMessageDto {
  @EnumParam(MESSAGE_TYPES, { description: '`direct` (or `private`), `channel` (or `stream`).' })
  type!: MessageTypeParam;

  @JsonParam(scheduledTo, { description: 'A channel id, or a list of user ids.' })
  to!: ScheduledTo;

  @StringParam({ optional: true, aliases: ['subject'], description: 'The topic of a channel message.' })
  topic?: string;

  @StringParam({ description: 'The message, in Markdown.' })
  content!: string;

  @JsonParam(timestamp, { description: 'When to send it: UNIX timestamp, UTC seconds, in the future.' })
  scheduled_delivery_timestamp!: number;

  @BoolParam({ optional: true, description: 'Whether the message starts read for its sender.' })
  read_by_sender?: boolean;
}

/** PATCH /scheduled_messages/{id} (update_scheduled_message_backend): at least one parameter. */
export class EditScheduledMessageDto {
  @EnumParam(MESSAGE_TYPES, { optional: true, description: 'A new type; needs `to` (and `topic` for a channel).' })
  type?: MessageTypeParam;

  @JsonParam(scheduledTo, { optional: true, description: 'A new channel id, or list of user ids.' })
  to?: ScheduledTo;

  @StringParam({ optional: true, aliases: ['subject'], description: 'A new topic (channel messages).' })
  topic?: string;

  @StringParam({ optional: true, description: 'New content, in Markdown.' })
  content?: string;

  @JsonParam(timestamp, { optional: true, description: 'A new time (required to retry a failed one).' })
  scheduled_delivery_timestamp?: number;
}
