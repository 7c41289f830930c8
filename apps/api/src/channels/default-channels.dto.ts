import { IntParam } from '../http/params/param.decorators';

/** POST and DELETE /default_streams (add_default_stream, remove_default_stream). */
export class DefaultChannelDto {
  @IntParam({ description: 'The id of the channel.' })
  stream_id!: number;
}
