import { Controller, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLIENT_EVENT_BUS, type ClientEventBusPort, SendTypingNotificationCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { TypingDto } from './typing.dto';

/**
 * POST /typing (zerver/views/typing.py). Typing notifications are not facts worth keeping: the
 * command decides who hears it (SendTypingNotificationHandler) and the controller publishes it on
 * the client-event bus (every API instance), never to the log.
 */
@Controller('api/v1/typing')
export class TypingController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLIENT_EVENT_BUS) private readonly bus: ClientEventBusPort,
  ) {}

  @Post()
  @Summary('Tell the recipients of a conversation that the user started or stopped typing.')
  async typing(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: TypingDto) {
    const { notification } = await this.commands.execute(new SendTypingNotificationCommand({ actor }, params));
    if (notification) await this.bus.publish(notification);
    return {};
  }
}
