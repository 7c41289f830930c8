import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AttachmentQueries, AuthenticationService, BLOB_STORE, type BlobStorePort, UploadUrlSigner } from '@app/application';
import { parseBasicAuthorization } from '../http/authentication.guard';
import { RealmContext } from '../http/realm-context';
import { sendUpload } from './serve-upload';
import { uploadPathIdOf } from './upload-path';
import { UploadFileForbiddenError, UploadFileNotFoundError } from './uploads.errors';

/**
 * `/user_uploads/…`, the paths messages link (≈ serve_file_backend, serve_file_download_backend,
 * serve_local_file_unauthed). Outside /api/v1, so the guard leaves them alone: the file paths
 * authenticate with the same HTTP Basic credentials themselves (this server has no browser
 * sessions); the temporary path is authorised by its signed token.
 */
@Controller('user_uploads')
export class UserUploadFilesController {
  constructor(
    private readonly attachments: AttachmentQueries,
    private readonly signer: UploadUrlSigner,
    private readonly authentication: AuthenticationService,
    private readonly realmContext: RealmContext,
    @Inject(BLOB_STORE) private readonly blobs: BlobStorePort,
  ) {}

  @Get('temporary/:token/:file_name')
  async temporary(@Param('token') token: string, @Param('file_name') fileName: string, @Res() response: Response): Promise<void> {
    const pathId = await this.signer.pathIdOf(token, fileName);
    const attachment = await this.attachments.byPathId(pathId);
    if (!attachment) throw new UploadFileNotFoundError();
    await sendUpload(response, this.blobs, attachment);
  }

  @Get('download/:realm_id/*path')
  async download(@Req() request: Request, @Param('realm_id') realmId: string, @Param('path') rest: string | string[], @Res() response: Response): Promise<void> {
    await this.serve(request, uploadPathIdOf(realmId, rest), response, true);
  }

  @Get(':realm_id/*path')
  async file(@Req() request: Request, @Param('realm_id') realmId: string, @Param('path') rest: string | string[], @Res() response: Response): Promise<void> {
    await this.serve(request, uploadPathIdOf(realmId, rest), response, false);
  }

  private async serve(request: Request, pathId: string, response: Response, download: boolean): Promise<void> {
    const { email, apiKey } = parseBasicAuthorization(request.headers.authorization);
    const realm = await this.realmContext.current();
    const { actor } = await this.authentication.authenticateHttpBasic(realm.id, email, apiKey);
    const access = await this.attachments.access(actor, pathId);
    if (!access) throw new UploadFileNotFoundError();
    if (!access.allowed) throw new UploadFileForbiddenError();
    await sendUpload(response, this.blobs, access.attachment, download);
  }
}
