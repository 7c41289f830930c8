import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import type { CancellationContext, Upload } from '@tus/utils';
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { APP_CONFIG, mkdirOwnerOnly, UploadAttachmentCommand, UploadIntake } from '@app/application';
import type { AppConfig } from '@app/config';
import { type Actor, DomainError } from '@app/domain';

export const TUS_PATH = '/api/v1/tus';

/** Unfinished tus uploads are removed a day after they were started. */
const UNFINISHED_UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

type AuthenticatedRequest = IncomingMessage & { auth?: { actor: Actor } };

const ownerOf = (req: AuthenticatedRequest): string => {
  const actor = req.auth?.actor;
  if (!actor || actor.userId === null) throw { status_code: 401, body: 'Not logged in: API authentication or user session required' };
  return `${actor.realmId}:${actor.userId}`;
};

const envelopeError = (status: number, body: string) =>
  JSON.stringify({ result: 'error', msg: body.trim() || 'Upload failed', code: status === 401 ? 'UNAUTHORIZED' : 'BAD_REQUEST' });

/** @tus/server, with its error answers in the API's envelope (they are plain text otherwise). */
class EnvelopedTusServer extends Server {
  override write(context: CancellationContext, req: IncomingMessage, res: ServerResponse, status: number, body = '', headers: Record<string, string | number> = {}) {
    if (status < 400) return super.write(context, req, res, status, body, headers);
    return super.write(context, req, res, status, envelopeError(status, body), { ...headers, 'Content-Type': 'application/json' });
  }
}

/**
 * The tus resumable-upload protocol at /api/v1/tus (Zulip: tusd with its hooks in
 * zerver/views/tusd.py), for files too large for one POST /user_uploads. The parts are kept in
 * `DATA_DIR/tus` (the @tus/file-store directory; several API instances need it on a shared
 * volume). An upload belongs to the user who created it; when its last byte arrives, the file is
 * streamed into the blob store and becomes an attachment exactly as POST /user_uploads makes one,
 * and the final response carries Zulip's `{url, filename}` (plus `uri`) as JSON.
 */
@Injectable()
export class TusUploads implements OnModuleDestroy {
  readonly directory: string;
  readonly server: Server;
  private readonly store: FileStore;
  private readonly cleanup: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly intake: UploadIntake,
    private readonly commands: CommandBus,
  ) {
    this.directory = join(config.dataDir, 'tus');
    mkdirOwnerOnly(this.directory); // unfinished uploads: owner-only, as the rest of the data directory
    this.store = new FileStore({ directory: this.directory, expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_LIFETIME_MS });
    this.server = new EnvelopedTusServer({
      path: TUS_PATH,
      datastore: this.store,
      relativeLocation: true,
      maxSize: intake.maxBytes,
      onIncomingRequest: (req, _res, uploadId) => this.checkOwner(req as AuthenticatedRequest, uploadId),
      onUploadCreate: async (req, res, upload) => ({ res, metadata: { ...upload.metadata, owner: ownerOf(req as AuthenticatedRequest) } }),
      onUploadFinish: (req, res, upload) => this.finish(req as AuthenticatedRequest, res, upload),
    });
    this.cleanup = setInterval(() => void this.server.cleanUpExpiredUploads().catch(() => 0), 60 * 60 * 1000);
    this.cleanup.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.cleanup);
  }

  handle(req: IncomingMessage, res: ServerResponse) {
    return this.server.handle(req, res);
  }

  /** Every request on an existing upload must come from its creator; others see no such upload. */
  private async checkOwner(req: AuthenticatedRequest, uploadId: string): Promise<void> {
    const owner = ownerOf(req);
    if (req.method === 'POST') return;
    const upload = await this.store.getUpload(uploadId).catch(() => null);
    if (!upload || upload.metadata?.owner !== owner) throw { status_code: 404, body: 'The file for this url was not found\n' };
  }

  private async finish(req: AuthenticatedRequest, res: ServerResponse, upload: Upload) {
    const actor = req.auth!.actor;
    const metadata = upload.metadata ?? {};
    const name = metadata.filename || metadata.name || 'uploaded-file';
    const declaredType = metadata.filetype || metadata.type || null;
    try {
      const stored = await this.intake.receive(actor.realmId, createReadStream(join(this.directory, upload.id)), null);
      const result = await this.commands.execute(
        new UploadAttachmentCommand({ actor }, { name, declaredType, size: stored.size, random: stored.random, blobKey: stored.blobKey, via: 'tus' }, 1),
      );
      return {
        res,
        status_code: 200,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ result: 'success', msg: '', url: result.url, uri: result.uri, filename: result.filename }),
      };
    } catch (error) {
      if (error instanceof DomainError) throw { status_code: error.httpStatus, body: error.message };
      throw error;
    } finally {
      await this.store.remove(upload.id).catch(() => undefined);
    }
  }
}
