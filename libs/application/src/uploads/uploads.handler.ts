import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { attachmentsStream, checkUpload, uploadContentType, uploadPathId, uploadsDecider, unixSeconds } from '@app/domain';
import type { BlobStorePort } from '../ports/blob-store.port';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { BLOB_STORE, CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { UploadIntake } from './upload-intake';
import { DeleteAttachmentCommand, UploadAttachmentCommand } from './uploads.command';
import { attachmentSummary, uploadResponse } from './uploads.documents';

/**
 * upload_file_backend + create_attachment. The bytes are already stored (streamed under the size
 * limit); the event names them. A refused request, or an append that fails, deletes them again.
 */
@CommandHandler(UploadAttachmentCommand)
export class UploadAttachmentHandler implements ICommandHandler<UploadAttachmentCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly intake: UploadIntake,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context: { actor }, file, fileCount }: UploadAttachmentCommand) {
    try {
      const maxFileUploadSizeMib = this.intake.maxFileUploadSizeMib;
      checkUpload({ fileCount, size: file?.size ?? 0, maxFileUploadSizeMib });
      const upload = file!;
      const attachmentId = await this.ids.next('attachment');
      const pathId = uploadPathId(actor.realmId, upload.random, upload.name);
      const contentType = uploadContentType(upload.declaredType, upload.name);
      const { newEvents, position } = await this.runner.run(uploadsDecider, attachmentsStream(actor.userId!), {
        type: 'UploadAttachment',
        data: {
          realmId: actor.realmId, actorId: actor.userId!, now: this.clock.now().toISOString(), attachmentId, pathId, name: upload.name,
          contentType, blobKey: upload.blobKey, via: upload.via, fileCount, size: upload.size, maxFileUploadSizeMib,
        },
      });
      await this.projections.waitFor(position);
      const uploaded = newEvents[0].data as { at: string; size: number; name: string };
      const attachment = attachmentSummary({
        attachment_id: attachmentId, realm_id: actor.realmId, owner_id: actor.userId!, name: uploaded.name, path_id: pathId, size: uploaded.size,
        content_type: contentType, blob_key: upload.blobKey, create_time: unixSeconds(uploaded.at), message_ids: [],
      });
      return { ...uploadResponse(pathId, upload.name), attachment };
    } catch (error) {
      if (file) await this.intake.discard(file.blobKey);
      throw error;
    }
  }
}

/** remove_attachment: the event first, then the bytes (a failed delete leaves an orphan, never a dangling record). */
@CommandHandler(DeleteAttachmentCommand)
export class DeleteAttachmentHandler implements ICommandHandler<DeleteAttachmentCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(BLOB_STORE) private readonly blobs: BlobStorePort,
  ) {}

  async execute({ context: { actor }, attachmentId }: DeleteAttachmentCommand): Promise<void> {
    const { newEvents, position } = await this.runner.run(uploadsDecider, attachmentsStream(actor.userId!), {
      type: 'DeleteAttachment',
      data: { realmId: actor.realmId, actorId: actor.userId!, now: this.clock.now().toISOString(), attachmentId },
    });
    await this.projections.waitFor(position);
    for (const event of newEvents) {
      if (event.type === 'AttachmentDeleted') await this.blobs.delete(event.data.blobKey).catch(() => false);
    }
  }
}
