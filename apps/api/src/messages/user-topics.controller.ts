import { Controller, Post, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { SetUserTopicVisibilityPolicyCommand, UpdateMutedTopicCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { UpdateMutedTopicDto, UpdateUserTopicDto } from './user-topics.dto';

/** ≈ zerver/views/user_topics.py */
@Controller('api/v1')
export class UserTopicsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('user_topics')
  @Summary("Set the user's visibility policy for a topic: muted, unmuted, followed or none.")
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateUserTopicDto) {
    await this.commands.execute(new SetUserTopicVisibilityPolicyCommand({ actor }, { streamId: params.stream_id, topic: params.topic, visibilityPolicy: params.visibility_policy }));
    return {};
  }

  /** Registered before PATCH /users/me/subscriptions/{stream_id} (this controller comes first in AppModule). */
  @Patch('users/me/subscriptions/muted_topics')
  @Summary('Mute or unmute a topic (deprecated: POST /user_topics).')
  async mutedTopic(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateMutedTopicDto) {
    await this.commands.execute(new UpdateMutedTopicCommand({ actor }, { streamId: params.stream_id, streamName: params.stream, topic: params.topic, op: params.op }));
    return {};
  }
}
