import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DeleteMessageCommand, EditMessageCommand, MessageHistoryQueries, MessageQueries, SendMessageCommand } from '@app/application';
import { parseNarrow } from '@app/domain';
import { CurrentUser } from '../http/auth.decorators';
import { ClientName } from '../http/client-name';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { GetMessageDto, GetMessagesDto, MatchesNarrowDto } from './get-messages.dto';
import { SendMessageDto } from './send-message.dto';
import { EditMessageDto } from './edit-message.dto';

/** ≈ zerver/views/message_send.py, zerver/views/message_fetch.py and zerver/views/message_edit.py */
@Controller('api/v1/messages')
export class MessagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly messages: MessageQueries,
    private readonly history: MessageHistoryQueries,
  ) {}

  @Post()
  @Summary('Send a channel or direct message.')
  send(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: SendMessageDto, @ClientName() client: string) {
    return this.commands.execute(
      new SendMessageCommand({ actor }, {
        type: params.type,
        to: params.to,
        topic: params.topic,
        content: params.content,
        readBySender: params.read_by_sender,
        localId: params.local_id,
        queueId: params.queue_id,
        client,
        ...(params.widget_content === undefined ? {} : { widgetContent: params.widget_content }),
      }),
    );
  }

  @Get()
  @Summary('Messages around an anchor, in a narrow; with a search, each has match_content and match_subject, the matches highlighted.')
  list(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: GetMessagesDto) {
    return this.messages.getMessages(actor, {
      anchor: params.anchor,
      useFirstUnreadAnchor: params.use_first_unread_anchor,
      includeAnchor: params.include_anchor,
      numBefore: params.num_before,
      numAfter: params.num_after,
      narrow: params.narrow === undefined ? undefined : parseNarrow(params.narrow),
      messageIds: params.message_ids,
      applyMarkdown: params.apply_markdown,
      clientGravatar: params.client_gravatar,
      allowEmptyTopicName: params.allow_empty_topic_name,
    });
  }

  @Get('matches_narrow')
  @Summary('Which of the given messages (that the caller received) match a narrow, with the search matches highlighted.')
  async matchesNarrow(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: MatchesNarrowDto) {
    return { messages: await this.messages.matchesNarrow(actor, params.msg_ids, parseNarrow(params.narrow)) };
  }

  @Get(':message_id')
  @Summary('One message, with its Markdown source.')
  one(@CurrentUser() { actor }: AuthenticatedUser, @Param('message_id') messageId: string, @Params() params: GetMessageDto) {
    return this.messages.getMessage(actor, intPathParam(messageId), { applyMarkdown: params.apply_markdown, allowEmptyTopicName: params.allow_empty_topic_name });
  }

  @Patch(':message_id')
  @Summary('Edit a message\'s content, or move it (and its topic) to another topic or channel.')
  edit(@CurrentUser() { actor }: AuthenticatedUser, @Param('message_id') messageId: string, @Params() params: EditMessageDto) {
    return this.commands.execute(
      new EditMessageCommand({ actor }, intPathParam(messageId), {
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode ?? 'change_one',
        prevContentSha256: params.prev_content_sha256,
        sendNotificationToOldThread: params.send_notification_to_old_thread ?? false,
        sendNotificationToNewThread: params.send_notification_to_new_thread ?? true,
      }),
    );
  }

  @Delete(':message_id')
  @Summary('Delete a message.')
  remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('message_id') messageId: string) {
    return this.commands.execute(new DeleteMessageCommand({ actor }, intPathParam(messageId)));
  }

  @Get(':message_id/history')
  @Summary('A message\'s edit history: every version, with who changed it and when.')
  editHistory(@CurrentUser() { actor }: AuthenticatedUser, @Param('message_id') messageId: string) {
    return this.history.history(actor, intPathParam(messageId));
  }
}
