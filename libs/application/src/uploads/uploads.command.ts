import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';
import type { AttachmentSummary } from './uploads.documents';

/** A file already streamed into the blob store (UploadIntake.receive), waiting for its event. */
export type ReceivedUpload = {
  /** The file name as the client sent it. */
  name: string;
  /** The part's Content-Type, if any (tus: the `filetype` metadata). */
  declaredType: string | null;
  size: number;
  random: string;
  blobKey: string;
  via: 'multipart' | 'tus';
};

/**
 * `POST /user_uploads` or a finished tus upload (upload_file_backend): the request's files — at
 * most the first one received — and how many there were. The handler deletes the bytes again if
 * the request is refused.
 */
export class UploadAttachmentCommand extends Command<{ url: string; uri: string; filename: string; attachment: AttachmentSummary }> {
  constructor(
    readonly context: CommandContext,
    readonly file: ReceivedUpload | null,
    readonly fileCount: number,
  ) {
    super();
  }
}

/** `DELETE /attachments/{attachment_id}` (remove_attachment): the owner removes the file. */
export class DeleteAttachmentCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly attachmentId: number,
  ) {
    super();
  }
}
