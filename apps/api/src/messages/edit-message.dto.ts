import { BoolParam, EnumParam, IntParam, StringParam } from '../http/params/param.decorators';

export const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'] as const;

/** PATCH /messages/{message_id} (zerver/views/message_edit.py update_message_backend). */
export class EditMessageDto {
  @StringParam({ optional: true, aliases: ['subject'], description: 'The new topic (channel messages only).' })
  topic?: string;

  @EnumParam(PROPAGATE_MODES, { optional: true, description: '`change_one` (default), `change_later` or `change_all`.' })
  propagate_mode?: (typeof PROPAGATE_MODES)[number];

  @BoolParam({ optional: true, description: 'Post a notice in the old topic (default false).' })
  send_notification_to_old_thread?: boolean;

  @BoolParam({ optional: true, description: 'Post a notice in the new topic (default true).' })
  send_notification_to_new_thread?: boolean;

  @StringParam({ optional: true, description: 'The new content, in Markdown.' })
  content?: string;

  @StringParam({ optional: true, description: 'SHA-256 (hex) of the raw content the client is editing.' })
  prev_content_sha256?: string;

  @IntParam({ optional: true, min: 0, description: 'The channel to move the message to.' })
  stream_id?: number;
}
