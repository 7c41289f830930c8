import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DeleteScheduledMessageCommand, EditScheduledMessageCommand, ScheduledMessageQueries, ScheduleMessageCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { ClientName } from '../http/client-name';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { CreateScheduledMessageDto, EditScheduledMessageDto } from './scheduled-messages.dto';

/** ≈ zerver/views/scheduled_messages.py. */
@Controller('api/v1/scheduled_messages')
export class ScheduledMessagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly scheduledMessages: ScheduledMessageQueries,
  ) {}

  @Get()
  @Summary("The caller's undelivered scheduled messages (failed ones included), soonest first.")
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    return { scheduled_messages: await this.scheduledMessages.list(actor.userId!) };
  }

  @Post()
  @Summary('Schedule a message to be sent later; answers its scheduled_message_id.')
  create(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: CreateScheduledMessageDto, @ClientName() client: string) {
    return this.commands.execute(
      new ScheduleMessageCommand({ actor }, {
        type: params.type,
        to: params.to,
        topic: params.topic,
        content: params.content,
        scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
        readBySender: params.read_by_sender,
        client,
      }),
    );
  }

  @Patch(':scheduled_message_id')
  @Summary("Edit a scheduled message's recipients, topic, content or time.")
  async edit(
    @CurrentUser() { actor }: AuthenticatedUser,
    @Param('scheduled_message_id') rawId: string,
    @Params() params: EditScheduledMessageDto,
    @ClientName() client: string,
  ) {
    await this.commands.execute(
      new EditScheduledMessageCommand({ actor }, intPathParam(rawId), {
        type: params.type,
        to: params.to,
        topic: params.topic,
        content: params.content,
        scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
        client,
      }),
    );
    return {};
  }

  @Delete(':scheduled_message_id')
  @Summary('Delete a scheduled message.')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('scheduled_message_id') rawId: string) {
    await this.commands.execute(new DeleteScheduledMessageCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}
