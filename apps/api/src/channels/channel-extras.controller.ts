import { Controller, Get, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ChannelLookups, DeleteTopicCommand } from '@app/application';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { DeleteTopicDto, StreamEmailAddressDto } from './channel-extras.dto';

/** ≈ zerver/views/streams.py get_stream_email_address, delete_in_topic, get_subscription_backend. */
@Controller('api/v1')
export class ChannelExtrasController {
  constructor(
    private readonly commands: CommandBus,
    private readonly lookups: ChannelLookups,
  ) {}

  @Get('streams/:stream_id/email_address')
  @Summary('A channel\'s incoming email address ("": this server runs no email gateway).')
  async emailAddress(@CurrentUser() { actor }: AuthenticatedUser, @Param('stream_id') rawId: string, @Params() params: StreamEmailAddressDto) {
    return { email: await this.lookups.emailAddress(actor, intPathParam(rawId), params.sender_id) };
  }

  @Post('streams/:stream_id/delete_topic')
  @RequireRole('administrator')
  @Summary('Delete every message of a topic the caller can read (administrators); `complete: false` asks to repeat.')
  async deleteTopic(@CurrentUser() { actor }: AuthenticatedUser, @Param('stream_id') rawId: string, @Params() params: DeleteTopicDto) {
    return this.commands.execute(new DeleteTopicCommand({ actor }, intPathParam(rawId), params.topic_name));
  }

  @Get('users/:user_id/subscriptions/:stream_id')
  @Summary('Whether a user is subscribed to a channel.')
  async subscriptionStatus(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_id') rawUserId: string, @Param('stream_id') rawStreamId: string) {
    return { is_subscribed: await this.lookups.isSubscribed(actor, intPathParam(rawUserId), intPathParam(rawStreamId)) };
  }
}
