import { Controller, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { UpdateSubscriptionPropertiesCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { UpdateSubscriptionPropertiesDto, UpdateSubscriptionPropertyDto, booleanOrText } from './subscription-properties.dto';

/** ≈ update_subscription_properties_backend and update_subscriptions_property (zerver/views/streams.py). */
@Controller('api/v1/users/me/subscriptions')
export class SubscriptionPropertiesController {
  constructor(private readonly commands: CommandBus) {}

  @Post('properties')
  @Summary('Change settings of your subscriptions: color, muting, pinning, notifications.')
  updateMany(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateSubscriptionPropertiesDto) {
    return this.commands.execute(new UpdateSubscriptionPropertiesCommand({ actor }, params.subscription_data));
  }

  @Patch(':stream_id')
  @Summary('Change one setting of one of your subscriptions.')
  updateOne(@CurrentUser() { actor }: AuthenticatedUser, @Param('stream_id') rawId: string, @Params() params: UpdateSubscriptionPropertyDto) {
    const channelId = intPathParam(rawId);
    // Zulip builds the change request in the view: a bad color is check_color's message alone.
    const value = booleanOrText(params.value);
    return this.commands.execute(new UpdateSubscriptionPropertiesCommand({ actor }, [{ channelId, property: params.property, value }]));
  }
}
