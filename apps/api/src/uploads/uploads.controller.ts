import { Controller, Get, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { AttachmentQueries, UploadAttachmentCommand, UploadIntake, UploadUrlSigner } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { receiveMultipartUpload } from './multipart-upload';
import { uploadPathIdOf } from './upload-path';
import { UploadFileForbiddenError, UploadFileNotFoundError } from './uploads.errors';

/** ≈ zerver/views/upload.py (the API side). */
@Controller('api/v1/user_uploads')
export class UploadsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly intake: UploadIntake,
    private readonly attachments: AttachmentQueries,
    private readonly signer: UploadUrlSigner,
  ) {}

  @Post()
  @Summary('Upload a file: exactly one file part in a multipart body, at most max_file_upload_size_mib; answers url, uri and filename.')
  async upload(@CurrentUser() { actor }: AuthenticatedUser, @Req() request: Request) {
    const { file, fileCount } = await receiveMultipartUpload(request, this.intake, actor.realmId);
    const { url, uri, filename } = await this.commands.execute(new UploadAttachmentCommand({ actor }, file, fileCount));
    return { uri, url, filename };
  }

  @Get(':realm_id/*path')
  @Summary('A temporary (60-second) URL of an uploaded file the caller may read, for native clients.')
  async temporaryUrl(@CurrentUser() { actor }: AuthenticatedUser, @Param('realm_id') realmId: string, @Param('path') rest: string | string[]) {
    const pathId = uploadPathIdOf(realmId, rest);
    const access = await this.attachments.access(actor, pathId);
    if (!access) throw new UploadFileNotFoundError();
    if (!access.allowed) throw new UploadFileForbiddenError();
    return { url: await this.signer.temporaryUrl(pathId) };
  }
}
