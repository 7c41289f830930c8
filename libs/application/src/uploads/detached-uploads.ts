import { linkedUploadPathIds } from '@app/domain';
import { type AttachmentDocument, type AttachmentSummary, attachmentSummary } from './uploads.documents';

/** The content edit `detached_uploads` is computed for (PATCH /messages/{id} with `content`). */
export type ContentEdit = { actorId: number; messageId: number; prevContent: string; content: string };

/** Path ids the old content linked and the new one does not: the attachments to load for detachedUploads. */
export function uploadPathIdsRemovedByEdit(edit: Pick<ContentEdit, 'prevContent' | 'content'>): string[] {
  const kept = new Set(linkedUploadPathIds(edit.content));
  return linkedUploadPathIds(edit.prevContent).filter((pathId) => !kept.has(pathId));
}

/**
 * `detached_uploads` of a content edit (zerver/views/message_edit.py, feature level 285): the
 * acting user's attachments whose links the edit removed and that no other message links any
 * more, as Attachment summaries (with the edited message no longer among `message_ids`). Pure:
 * `attachments` are the documents of `uploadPathIdsRemovedByEdit(edit)` (any others are ignored),
 * read before or after the edit was projected.
 */
export function detachedUploads(edit: ContentEdit, attachments: readonly AttachmentDocument[]): AttachmentSummary[] {
  const removed = new Set(uploadPathIdsRemovedByEdit(edit));
  return attachments
    .filter((doc) => removed.has(doc.path_id) && doc.owner_id === edit.actorId)
    .map((doc) => ({ doc, remaining: doc.message_ids.filter((id) => id !== edit.messageId) }))
    .filter(({ remaining }) => remaining.length === 0)
    .sort((a, b) => a.doc.attachment_id - b.doc.attachment_id)
    .map(({ doc, remaining }) => attachmentSummary(doc, remaining));
}
