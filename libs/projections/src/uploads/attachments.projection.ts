import { linkedUploadPathIds, type MessageContentEdited, type MessageDeleted, type MessageSent, type UploadEvent } from '@app/domain';
import { ATTACHMENTS, type AttachmentDocument, attachmentLinksId, type MessageLinksDocument, UPLOAD_SPACE, type UploadSpaceDocument } from '@app/application';
import { defineProjection, type Recorded, unixSeconds } from '../shared/projection';

/** A message's links changed: `linked` says whether the message (now) links the document's file. */
type LinkChange = { realmId: number; messageId: number; senderId: number; linked: boolean };

/**
 * Zulip's claiming (do_claim_attachments / check_attachment_reference_change), restricted to the
 * uploader's own messages: a message claims a file when its sender owns it and its content links
 * it; an edit that drops the link releases it. Anything else leaves the document as it is.
 */
export function applyLinkChange(doc: AttachmentDocument | null, change: LinkChange): AttachmentDocument | null {
  if (!doc || doc.realm_id !== change.realmId || doc.owner_id !== change.senderId) return doc;
  const has = doc.message_ids.includes(change.messageId);
  if (change.linked === has) return doc;
  const message_ids = change.linked ? [...doc.message_ids, change.messageId].sort((a, b) => a - b) : doc.message_ids.filter((id) => id !== change.messageId);
  return { ...doc, message_ids };
}

/**
 * The message events that change links: the path ids an event may touch, and for each the
 * change. A message that links files also keeps a `links:<messageId>` document (MessageLinksDocument)
 * naming them, because its deletion carries no content: the deletion follows it to the files
 * and unlinks them (Zulip's cascade of the message's rows), and the document goes with it.
 */
type LinkEvent = MessageSent | MessageContentEdited | MessageDeleted;
type Doc = AttachmentDocument | MessageLinksDocument;

const linkedIdsOf = (e: Recorded<MessageSent | MessageContentEdited>): string[] =>
  e.type === 'MessageSent'
    ? linkedUploadPathIds(e.data.content)
    : // check_attachment_reference_change: links of either content.
      [...new Set([...linkedUploadPathIds(e.data.prevContent), ...linkedUploadPathIds(e.data.content)])];

const linkChangeOf = (e: Recorded<LinkEvent>, pathId: string): LinkChange => {
  switch (e.type) {
    case 'MessageSent':
      return { realmId: e.data.realmId, messageId: e.data.messageId, senderId: e.data.senderId, linked: true };
    case 'MessageContentEdited':
      // Only the sender edits content, so the editor is the sender.
      return { realmId: e.data.realmId, messageId: e.data.messageId, senderId: e.data.editorId, linked: linkedUploadPathIds(e.data.content).includes(pathId) };
    case 'MessageDeleted':
      return { realmId: e.data.realmId, messageId: e.data.messageId, senderId: e.data.senderId, linked: false };
  }
};

/** The files a message links now (null: none, the document goes). */
function messageLinks(e: Recorded<LinkEvent>): MessageLinksDocument | null {
  if (e.type === 'MessageDeleted') return null;
  const pathIds = linkedUploadPathIds(e.data.content);
  return pathIds.length === 0 ? null : { message_id: e.data.messageId, path_ids: [...new Set(pathIds)] };
}

const isLinksId = (id: string) => id.startsWith('links:');

/** Zulip's Attachment (with its claiming messages), keyed by path id, from `attachments-<ownerId>` and message events. */
export const attachmentsProjection = defineProjection<Doc, UploadEvent | LinkEvent>({
  name: 'attachments',
  collection: {
    name: ATTACHMENTS,
    fields: [
      { name: 'owner_id', type: 'number' },
      { name: 'attachment_id', type: 'number', index: false },
      { name: 'realm_id', type: 'number', index: false },
    ],
    compoundIndexes: [['owner_id', 'attachment_id']],
  },
  handles: ['AttachmentUploaded', 'AttachmentDeleted', 'MessageSent', 'MessageContentEdited', 'MessageDeleted'],
  idsOf: (e) => {
    switch (e.type) {
      case 'MessageSent':
      case 'MessageContentEdited': {
        const pathIds = linkedIdsOf(e);
        return pathIds.length === 0 ? [] : [...pathIds, attachmentLinksId(e.data.messageId)];
      }
      case 'MessageDeleted':
        return [attachmentLinksId(e.data.messageId)];
      default:
        return [e.data.pathId];
    }
  },
  followIds: (e, docOf) => (e.type === 'MessageDeleted' ? ((docOf(attachmentLinksId(e.data.messageId)) as MessageLinksDocument | null)?.path_ids ?? []) : []),
  evolve: (doc, e, id) => {
    switch (e.type) {
      case 'MessageSent':
      case 'MessageContentEdited':
      case 'MessageDeleted':
        return isLinksId(id) ? messageLinks(e) : applyLinkChange(doc as AttachmentDocument | null, linkChangeOf(e, id));
      case 'AttachmentDeleted':
        return null;
      case 'AttachmentUploaded': {
        const d = e.data;
        return {
          attachment_id: d.attachmentId, realm_id: d.realmId, owner_id: d.ownerId, name: d.name, path_id: d.pathId, size: d.size,
          content_type: d.contentType, blob_key: d.blobKey, create_time: unixSeconds(d.at), message_ids: [],
        };
      }
    }
  },
});

/** Realm.currently_used_upload_space_bytes, per organization (GET /attachments `upload_space_used`). */
export const uploadSpaceProjection = defineProjection<UploadSpaceDocument, UploadEvent>({
  name: 'upload_space',
  collection: { name: UPLOAD_SPACE, fields: [] },
  handles: ['AttachmentUploaded', 'AttachmentDeleted'],
  idsOf: (e) => [String(e.data.realmId)],
  evolve: (doc, e) => {
    const bytes = (doc?.bytes ?? 0) + (e.type === 'AttachmentUploaded' ? e.data.size : -e.data.size);
    return { realm_id: e.data.realmId, bytes: Math.max(0, bytes) };
  },
});
