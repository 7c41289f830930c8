import { Controller, Delete, Get, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AddSubscriptionsCommand, RemoveSubscriptionsCommand, SubscriptionViews } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { AddSubscriptionsDto, GetSubscriptionsDto, RemoveSubscriptionsDto } from './subscriptions.dto';
import { NonGuestGuard } from './non-guest.guard';

/** ≈ the subscription views of zerver/views/streams.py. */
@Controller('api/v1/users/me/subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly views: SubscriptionViews,
  ) {}

  @Get()
  @Summary('The channels the caller is subscribed to, with their settings.')
  async list(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: GetSubscriptionsDto) {
    return { subscriptions: await this.views.subscriptionsOf(actor, { includeSubscribers: params.include_subscribers ?? false }) };
  }

  @Post()
  @UseGuards(NonGuestGuard)
  @Summary('Subscribe the caller or others to channels, creating missing ones.')
  add(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: AddSubscriptionsDto) {
    return this.commands.execute(
      new AddSubscriptionsCommand(
        { actor },
        {
          subscriptions: params.subscriptions,
          principals: params.principals,
          authorizationErrorsFatal: params.authorization_errors_fatal,
          inviteOnly: params.invite_only,
          historyPublicToSubscribers: params.history_public_to_subscribers ?? null,
          isWebPublic: params.is_web_public,
          topicsPolicy: params.topics_policy,
          isDefaultStream: params.is_default_stream,
          messageRetentionDays: params.message_retention_days,
        },
      ),
    );
  }

  @Delete()
  @Summary('Unsubscribe the caller or others from channels.')
  remove(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: RemoveSubscriptionsDto) {
    return this.commands.execute(new RemoveSubscriptionsCommand({ actor }, { subscriptions: params.subscriptions, principals: params.principals }));
  }
}
