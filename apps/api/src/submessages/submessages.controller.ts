import { Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AddSubmessageCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { AddSubmessageDto } from './submessages.dto';

/** ≈ zerver/views/submessage.py. Message objects carry `submessages`; new ones arrive as `submessage` events. */
@Controller('api/v1')
export class SubmessagesController {
  constructor(private readonly commands: CommandBus) {}

  @Post('submessage')
  @Summary('Add a submessage to a message (a poll vote, a to-do list task…).')
  async add(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: AddSubmessageDto) {
    await this.commands.execute(new AddSubmessageCommand({ actor }, { messageId: params.message_id, msgType: params.msg_type, content: params.content }));
    return {};
  }
}
