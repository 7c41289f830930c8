import { Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { MarkAllAsReadCommand, MarkChannelAsReadCommand, MarkTopicAsReadCommand, UpdateMessageFlagsCommand, UpdateMessageFlagsForNarrowCommand } from '@app/application';
import { parseNarrow } from '@app/domain';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { MarkStreamAsReadDto, MarkTopicAsReadDto, UpdateMessageFlagsDto, UpdateMessageFlagsForNarrowDto } from './message-flags.dto';

/** ≈ zerver/views/message_flags.py */
@Controller('api/v1')
export class MessageFlagsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('messages/flags/narrow')
  @Summary('Add or remove a personal flag on the messages of a narrow around an anchor.')
  forNarrow(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateMessageFlagsForNarrowDto) {
    return this.commands.execute(
      new UpdateMessageFlagsForNarrowCommand(
        { actor },
        {
          anchor: params.anchor,
          includeAnchor: params.include_anchor,
          numBefore: params.num_before,
          numAfter: params.num_after,
          narrow: parseNarrow(params.narrow ?? []),
          op: params.op,
          flag: params.flag,
        },
      ),
    );
  }

  @Post('messages/flags')
  @Summary('Add or remove a personal flag on a list of messages.')
  byIds(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdateMessageFlagsDto) {
    return this.commands.execute(new UpdateMessageFlagsCommand({ actor }, { messages: params.messages, op: params.op, flag: params.flag }));
  }

  @Post('mark_all_as_read')
  @Summary('Mark all messages as read (deprecated).')
  markAll(@CurrentUser() { actor }: AuthenticatedUser) {
    return this.commands.execute(new MarkAllAsReadCommand({ actor }));
  }

  @Post('mark_stream_as_read')
  @Summary("Mark a channel's messages as read (deprecated).")
  async markStream(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: MarkStreamAsReadDto) {
    await this.commands.execute(new MarkChannelAsReadCommand({ actor }, params.stream_id));
    return {};
  }

  @Post('mark_topic_as_read')
  @Summary("Mark a topic's messages as read (deprecated).")
  async markTopic(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: MarkTopicAsReadDto) {
    await this.commands.execute(new MarkTopicAsReadCommand({ actor }, params.stream_id, params.topic_name));
    return {};
  }
}
