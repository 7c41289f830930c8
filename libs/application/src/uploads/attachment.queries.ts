import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '@app/domain';
import { MessageAccess } from '../messages/message-access';
import { MESSAGES } from '../messages/message.documents';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { type ContentEdit, detachedUploads, uploadPathIdsRemovedByEdit } from './detached-uploads';
import { ATTACHMENTS, type AttachmentDocument, type AttachmentSummary, attachmentSummary, UPLOAD_SPACE, type UploadSpaceDocument } from './uploads.documents';

export type AttachmentAccess = { attachment: AttachmentDocument; allowed: boolean };

/** Reads of the attachments read model: GET /attachments, file serving (validate_attachment_request), detached uploads. */
@Injectable()
export class AttachmentQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly messages: MessageAccess,
  ) {}

  /** GET /attachments (user_attachments): the caller's uploads by id, and the organization's used bytes. */
  async list(actor: Actor): Promise<{ attachments: AttachmentSummary[]; upload_space_used: number }> {
    const [docs, space] = await Promise.all([
      this.readStore.find<AttachmentDocument>(ATTACHMENTS, { where: { owner_id: actor.userId }, orderBy: [{ field: 'attachment_id', direction: 'asc' }] }),
      this.readStore.get<UploadSpaceDocument>(UPLOAD_SPACE, String(actor.realmId)),
    ]);
    const own = await this.withLiveMessages(docs.filter((d) => d.realm_id === actor.realmId));
    return { attachments: own.map((d) => attachmentSummary(d)), upload_space_used: space?.bytes ?? 0 };
  }

  /** Drops ids of messages deleted since they claimed a file (their events carry no content to unlink by). */
  private async withLiveMessages(docs: AttachmentDocument[]): Promise<AttachmentDocument[]> {
    const ids = [...new Set(docs.flatMap((d) => d.message_ids))];
    if (ids.length === 0) return docs;
    const live = new Set((await this.readStore.getMany<{ id: number }>(MESSAGES, ids.map(String))).map((m) => Number(m.id)));
    return docs.map((d) => (d.message_ids.every((id) => live.has(id)) ? d : { ...d, message_ids: d.message_ids.filter((id) => live.has(id)) }));
  }

  async byPathId(pathId: string): Promise<AttachmentDocument | null> {
    return this.readStore.get<AttachmentDocument>(ATTACHMENTS, pathId);
  }

  /**
   * validate_attachment_request: null when there is no such file in the reader's organization;
   * otherwise the file and whether the reader may see it (its owner, or a reader of a message
   * that links it).
   */
  async access(actor: Actor, pathId: string): Promise<AttachmentAccess | null> {
    const attachment = await this.byPathId(pathId);
    if (!attachment || attachment.realm_id !== actor.realmId || actor.userId === null) return null;
    return { attachment, allowed: await this.messages.mayReadLinkedFile(actor, attachment.owner_id, attachment.message_ids) };
  }

  /**
   * `detached_uploads` for a content edit (see detachedUploads): loads the attachments whose links
   * the edit removed. For PATCH /messages/{id}; call it before or after the edit's projection.
   */
  async detachedUploads(edit: ContentEdit): Promise<AttachmentSummary[]> {
    const pathIds = uploadPathIdsRemovedByEdit(edit);
    if (pathIds.length === 0) return [];
    const docs = await this.readStore.getMany<AttachmentDocument>(ATTACHMENTS, pathIds);
    return detachedUploads(edit, await this.withLiveMessages(docs.map((d) => d.doc)));
  }
}
