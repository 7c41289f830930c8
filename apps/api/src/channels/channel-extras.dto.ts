import { IntParam, StringParam } from '../http/params/param.decorators';

/** GET /streams/{stream_id}/email_address (get_stream_email_address). */
export class StreamEmailAddressDto {
  @IntParam({ optional: true, min: 0, description: 'The user or bot the address would post as (the caller, or a bot the caller administers).' })
  sender_id?: number;
}

/** POST /streams/{stream_id}/delete_topic (delete_in_topic). */
export class DeleteTopicDto {
  @StringParam({ description: 'The topic whose messages to delete ("general chat" names the empty topic); case-insensitive.' })
  topic_name!: string;
}
