import { Injectable } from '@nestjs/common';
import { type MessageContentEdit, type MessageExtension, MessageExtensions } from '../messages/message-extensions';
import { AttachmentQueries } from './attachment.queries';
import type { AttachmentSummary } from './uploads.documents';

/** Uploads linked from messages: PATCH /messages/{id} answers `detached_uploads`. */
@Injectable()
export class UploadsMessageExtension implements MessageExtension {
  readonly name = 'uploads';

  constructor(
    extensions: MessageExtensions,
    private readonly attachments: AttachmentQueries,
  ) {
    extensions.register(this);
  }

  /**
   * detached_uploads (check_attachment_reference_change): the editor's uploads whose only links
   * this content edit removed; always present, empty for moves.
   */
  async editAnswer(edit: MessageContentEdit | null): Promise<{ detached_uploads: AttachmentSummary[] }> {
    return { detached_uploads: edit ? await this.attachments.detachedUploads(edit) : [] };
  }
}
