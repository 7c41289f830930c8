import { Controller, Patch, Post } from '@nestjs/common';
import { UserTopicsService } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { UpdateMutedTopicDto, UpdateUserTopicDto } from './user-topics.dto';

/** ≈ zerver/views/user_topics.py */
@Controller('api/v1')
export class UserTopicsController {
  constructor(private readonly userTopics: UserTopicsService) {}

  @Post('user_topics')
  @Summary("Set the user's visibility policy for a topic: muted, unmuted, followed or none.")
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateUserTopicDto) {
    await this.userTopics.setVisibilityPolicy(actor, { streamId: params.stream_id, topic: params.topic, visibilityPolicy: params.visibility_policy });
    return {};
  }

  /** Registered before PATCH /users/me/subscriptions/{stream_id} (this controller comes first in AppModule). */
  @Patch('users/me/subscriptions/muted_topics')
  @Summary('Mute or unmute a topic (deprecated: POST /user_topics).')
  async mutedTopic(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateMutedTopicDto) {
    await this.userTopics.updateMutedTopic(actor, { streamId: params.stream_id, streamName: params.stream, topic: params.topic, op: params.op });
    return {};
  }
}
