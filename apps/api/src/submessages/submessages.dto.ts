import { IntParam, StringParam } from '../http/params/param.decorators';

/** POST /submessage (process_submessage). */
export class AddSubmessageDto {
  @IntParam({ description: 'The message to attach the submessage to.' })
  message_id!: number;

  @StringParam({ description: 'The submessage type; `widget` for widgets (polls, to-do lists).' })
  msg_type!: string;

  @StringParam({ description: 'The submessage as JSON, e.g. a poll vote `{"type": "vote", "key": "canned,0", "vote": 1}`.' })
  content!: string;
}
