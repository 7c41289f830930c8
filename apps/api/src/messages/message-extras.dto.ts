import { MAX_REPORT_MESSAGE_EXPLANATION_LENGTH, REPORT_MESSAGE_TYPE_KEYS } from '@app/domain';
import { EnumParam, StringParam } from '../http/params/param.decorators';

/** POST /messages/render (render_message_backend): `content`, taken literally. */
export class RenderMessageDto {
  @StringParam({ description: 'Markdown to render as a message from the caller would be rendered.' })
  content!: string;
}

/** POST /messages/{message_id}/report (report_message_backend). */
export class ReportMessageDto {
  @EnumParam(REPORT_MESSAGE_TYPE_KEYS, { description: 'Why the message is reported: one of the keys of server_report_message_types (spam, harassment, inappropriate, norms, other).' })
  report_type!: string;

  @StringParam({
    optional: true,
    maxLength: MAX_REPORT_MESSAGE_EXPLANATION_LENGTH,
    description: 'What the moderators should know (at most 1000 characters); required for report_type "other".',
  })
  description?: string;
}
