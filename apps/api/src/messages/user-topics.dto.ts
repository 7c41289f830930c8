import { EnumParam, IntParam, StringParam } from '../http/params/param.decorators';

/** POST /user_topics (zerver/views/user_topics.py update_user_topic). */
export class UpdateUserTopicDto {
  @IntParam({ description: 'The channel of the topic.' })
  stream_id!: number;

  @StringParam({ description: 'At most 60 characters; the empty-topic display name (`realm_empty_topic_display_name`) means the empty topic.' })
  topic!: string;

  @IntParam({ description: '0 none (inherit the channel\'s), 1 muted, 2 unmuted, 3 followed.' })
  visibility_policy!: number;
}

/** PATCH /users/me/subscriptions/muted_topics (update_muted_topic, deprecated by POST /user_topics). */
export class UpdateMutedTopicDto {
  @IntParam({ optional: true, description: 'The channel of the topic (or give `stream`).' })
  stream_id?: number;

  @StringParam({ optional: true, description: 'The channel\'s name (or give `stream_id`).' })
  stream?: string;

  @StringParam({ description: 'At most 60 characters; `general chat` means the empty topic.' })
  topic!: string;

  @EnumParam(['add', 'remove'], { description: '`add` mutes the topic, `remove` unmutes it.' })
  op!: 'add' | 'remove';
}
