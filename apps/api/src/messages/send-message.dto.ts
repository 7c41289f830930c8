import { MESSAGE_TYPES } from '@app/domain';
import { BoolParam, EnumParam, StringParam } from '../http/params/param.decorators';

/** POST /messages (zerver/views/message_send.py send_message_backend). */
export class SendMessageDto {
  @EnumParam(MESSAGE_TYPES, { description: '`direct` (or the deprecated `private`), `channel` (or `stream`).' })
  type: (typeof MESSAGE_TYPES)[number];

  @StringParam({ optional: true, description: 'A channel name or id (or a JSON list of one); user ids or emails as a JSON list, or emails comma-separated.' })
  to?: string;

  @StringParam({ optional: true, aliases: ['subject'], description: 'The topic of a channel message.' })
  topic?: string;

  @StringParam({ description: 'The message, in Markdown.' })
  content: string;

  @StringParam({ optional: true, description: 'The sending client\'s event queue, for local echo.' })
  queue_id?: string;

  @StringParam({ optional: true, description: 'The client\'s id for the message, echoed as local_message_id.' })
  local_id?: string;

  @BoolParam({ optional: true, description: 'Whether the message starts read for its sender.' })
  read_by_sender?: boolean;

  @StringParam({ optional: true, description: 'A widget given outright, as JSON `{"widget_type": "zform", "extra_data": {…}}` (Zulip\'s choices widget), instead of one read from the content (`/poll`, `/todo`).' })
  widget_content?: string;
}
