import { Controller, Delete, Get, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AttachmentQueries, DeleteAttachmentCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';

/** ≈ zerver/views/attachments.py */
@Controller('api/v1/attachments')
export class AttachmentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly attachments: AttachmentQueries,
  ) {}

  @Get()
  @Summary("The caller's uploaded files (Attachment summaries) and the organization's used upload space in bytes.")
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    return this.attachments.list(actor);
  }

  @Delete(':attachment_id')
  @Summary('Delete one of your uploaded files; links to it stop working.')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('attachment_id') attachmentId: string) {
    await this.commands.execute(new DeleteAttachmentCommand({ actor }, intPathParam(attachmentId)));
    return {};
  }
}
