import { CHANNEL_TOPICS_POLICIES, type ChannelTopicsPolicy, MAX_CHANNEL_DESCRIPTION_LENGTH } from '@app/domain';
import { InvalidParamError } from '../http/params/param.errors';
import { type Shape, shapes } from '../http/params/json-shapes';
import { BoolParam, EnumParam, IntParam, JsonParam, StringParam } from '../http/params/param.decorators';
import { messageRetentionDaysShape } from '../http/params/message-retention-days';

/** `Json[int | None]`: a folder id, or null for none. */
const folderId: Shape<number | null> = {
  describe: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
  parse: (value, p) => {
    if (value === null) return null;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new InvalidParamError(`${p} is not an integer`);
    return shapes.int().parse(value, p);
  },
};

/** GET /streams (zerver/views/streams.py get_streams_backend). */
export class GetStreamsDto {
  @BoolParam({ optional: true, description: 'Default true: public channels (not for guests).' })
  include_public?: boolean;

  @BoolParam({ optional: true, description: 'Web-public channels.' })
  include_web_public?: boolean;

  @BoolParam({ optional: true, description: 'Default true: channels the caller is subscribed to.' })
  include_subscribed?: boolean;

  @BoolParam({ optional: true, description: 'Default true: leave archived channels out.' })
  exclude_archived?: boolean;

  @BoolParam({ optional: true, description: 'Every channel whose metadata the caller may see.' })
  include_all?: boolean;

  @BoolParam({ optional: true, description: 'Deprecated synonym of include_all.' })
  include_all_active?: boolean;

  @BoolParam({ optional: true, description: 'Add is_default to each channel.' })
  include_default?: boolean;

  @BoolParam({ optional: true, description: 'For bots: also the channels their owner is subscribed to.' })
  include_owner_subscribed?: boolean;

  @BoolParam({ optional: true, description: 'Every channel whose messages the caller may read.' })
  include_can_access_content?: boolean;
}

/** GET /get_stream_id. */
export class GetStreamIdDto {
  @StringParam({ description: 'The channel\'s name.' })
  stream!: string;
}

/** PATCH /streams/{stream_id} (update_stream_backend). */
export class UpdateStreamDto {
  @StringParam({ optional: true, maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH, description: 'New description; newlines become spaces.' })
  description?: string;

  @StringParam({ optional: true, description: 'New name.' })
  new_name?: string;

  @BoolParam({ optional: true, description: 'Make the channel private (true) or public (false).' })
  is_private?: boolean;

  @BoolParam({ optional: true, description: 'Make the channel a default channel for new users (true) or stop (false); administrators only.' })
  is_default_stream?: boolean;

  @BoolParam({ optional: true, description: 'Whether subscribers see messages sent before they joined.' })
  history_public_to_subscribers?: boolean;

  @BoolParam({ optional: true, description: 'Make the channel web-public.' })
  is_web_public?: boolean;

  @BoolParam({ optional: true, description: 'false unarchives an archived channel.' })
  is_archived?: boolean;

  @JsonParam(folderId, { optional: true, description: 'The channel folder to put the channel in; null for none.' })
  folder_id?: number | null;

  @JsonParam(messageRetentionDaysShape(['realm_default', 'unlimited']), {
    optional: true,
    description: 'Days the channel\'s messages are kept: a positive integer, "unlimited", or "realm_default" (the organization\'s); owners only.',
  })
  message_retention_days?: number | string;

  @EnumParam(CHANNEL_TOPICS_POLICIES, {
    optional: true,
    description: 'The channel\'s own topics policy: "inherit" (the organization\'s), "allow_empty_topic", "disable_empty_topic" or "empty_topic_only". Needs can_set_topics_policy_group (administrators always may).',
  })
  topics_policy?: ChannelTopicsPolicy;
}

/** GET /users/me/{stream_id}/topics. */
export class GetTopicsDto {
  @BoolParam({ optional: true, description: 'Show the empty topic by its name "" rather than the display name.' })
  allow_empty_topic_name?: boolean;
}

