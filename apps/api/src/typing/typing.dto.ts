import { shapes } from '../http/params/json-shapes';
import { EnumParam, IntParam, JsonParam, StringParam } from '../http/params/param.decorators';

/** POST /typing (zerver/views/typing.py send_notification_backend). */
export class TypingDto {
  @EnumParam(['direct', 'stream', 'channel', 'private'], { optional: true, description: 'Kind of conversation (default direct).' })
  type?: 'direct' | 'stream' | 'channel' | 'private';

  @EnumParam(['start', 'stop'], { description: 'Whether the user started or stopped typing.' })
  op!: 'start' | 'stop';

  @JsonParam(shapes.list(shapes.int()), { optional: true, description: 'Direct messages: the recipients\' user ids.' })
  to?: number[];

  @IntParam({ optional: true, description: 'Channel messages: the channel.' })
  stream_id?: number;

  @StringParam({ optional: true, description: 'Channel messages: the topic.' })
  topic?: string;
}
