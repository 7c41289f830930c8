import { Controller, Get, Param, Post } from '@nestjs/common';
import { ReadReceiptsQueries, RenderMessageQueries, ReportMessageCommand } from '@app/application';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { RenderMessageDto, ReportMessageDto } from './message-extras.dto';

/**
 * ≈ zerver/views/read_receipts.py, render_message_backend (zerver/views/message_send.py) and
 * zerver/views/message_report.py.
 */
@Controller('api/v1/messages')
export class MessageExtrasController {
  constructor(
    private readonly receipts: ReadReceiptsQueries,
    private readonly rendering: RenderMessageQueries,
    private readonly commands: CommandBus,
  ) {}

  @Post('render')
  @Summary('Render Markdown as a message from the caller; nothing is stored.')
  async render(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: RenderMessageDto) {
    return { rendered: await this.rendering.render(actor, params.content) };
  }

  @Get(':message_id/read_receipts')
  @Summary('Who has read a message (users sharing read receipts; not the sender, nor muted users either way).')
  async readReceipts(@CurrentUser() { actor }: AuthenticatedUser, @Param('message_id') messageId: string) {
    return { user_ids: await this.receipts.readReceipts(actor, intPathParam(messageId)) };
  }

  @Post(':message_id/report')
  @Summary('Report a message to the organization\'s moderators: Notification Bot posts it in the moderation request channel.')
  async report(@CurrentUser() { actor }: AuthenticatedUser, @Param('message_id') messageId: string, @Params() params: ReportMessageDto) {
    return this.commands.execute(
      new ReportMessageCommand({ actor }, intPathParam(messageId), { reportType: params.report_type, description: params.description ?? '' }),
    );
  }
}
