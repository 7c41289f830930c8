import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import {
  APP_CONFIG, AttachmentQueries, type AuthenticatedUser, AuthenticationService, BLOB_STORE, type BlobStorePort, LOGGER, RATE_LIMIT_STORE,
  type RateLimitStorePort, UploadUrlSigner,
} from '@app/application';
import type { AppConfig } from '@app/config';
import { parseBasicAuthorization } from '../http/authentication.guard';
import { RateLimiter } from '../http/rate-limiter';
import { RealmContext } from '../http/realm-context';
import { sendUpload } from './serve-upload';
import { uploadPathIdOf } from './upload-path';
import { UploadFileForbiddenError, UploadFileNotFoundError } from './uploads.errors';

/**
 * `/user_uploads/…`, the paths messages link (≈ serve_file_backend, serve_file_download_backend,
 * serve_local_file_unauthed). Outside /api/v1, so the guard leaves them alone: the file paths
 * authenticate with the same HTTP Basic credentials themselves (this server has no browser
 * sessions) and apply the same rate limits as /api/v1 (a failed authentication counts against
 * the caller's IP, so API keys cannot be guessed here either; a success against the user); the
 * temporary path is authorised by its signed token.
 */
@Controller('user_uploads')
export class UserUploadFilesController {
  private readonly limiter: RateLimiter;

  constructor(
    private readonly attachments: AttachmentQueries,
    private readonly signer: UploadUrlSigner,
    private readonly authentication: AuthenticationService,
    private readonly realmContext: RealmContext,
    @Inject(BLOB_STORE) private readonly blobs: BlobStorePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) rateLimitStore: RateLimitStorePort,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.limiter = new RateLimiter(rateLimitStore, logger);
  }

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
    const { actor } = await this.authenticate(request, response);
    const access = await this.attachments.access(actor, pathId);
    if (!access) throw new UploadFileNotFoundError();
    if (!access.allowed) throw new UploadFileForbiddenError();
    await sendUpload(response, this.blobs, access.attachment, download);
  }

  /** As the /api/v1 guard: HTTP Basic, a failure counted per IP, a success per user. */
  private async authenticate(request: Request, response: Response): Promise<AuthenticatedUser> {
    let authenticated: AuthenticatedUser;
    try {
      const { email, apiKey } = parseBasicAuthorization(request.headers.authorization);
      const realm = await this.realmContext.current();
      authenticated = await this.authentication.authenticateHttpBasic(realm.id, email, apiKey);
    } catch (error) {
      await this.limiter.hit(`ip:${request.ip}`, this.config.rateLimits.perIp, response);
      throw error;
    }
    await this.limiter.hit(`user:${authenticated.user.user_id}`, this.config.rateLimits.perUser, response);
    return authenticated;
  }
}
