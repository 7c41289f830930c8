import { uploadUrl } from '@app/domain';

/**
 * An uploaded file (Zulip's Attachment), keyed by its path id, with the messages that claimed it
 * (a message of its owner that links `/user_uploads/<path_id>`).
 */
export type AttachmentDocument = {
  attachment_id: number;
  realm_id: number;
  owner_id: number;
  /** The file name as uploaded. */
  name: string;
  path_id: string;
  size: number;
  content_type: string;
  blob_key: string;
  /** Seconds since the epoch. */
  create_time: number;
  /** Messages of the owner that link the file, ascending. */
  message_ids: number[];
};

export const ATTACHMENTS = 'attachments';

/**
 * Beside the attachments, in their collection: the files one message links, keyed
 * `links:<messageId>` (attachmentLinksId), so that its deletion, whose event carries no content,
 * unlinks them. Never returned by the queries (it has no `owner_id`).
 */
export type MessageLinksDocument = { message_id: number; path_ids: string[] };

export const attachmentLinksId = (messageId: number) => `links:${messageId}`;

/** Bytes used by the uploads of one organization (Realm.currently_used_upload_space_bytes), keyed by realm id. */
export type UploadSpaceDocument = { realm_id: number; bytes: number };

export const UPLOAD_SPACE = 'upload_space';

/** The API's Attachment summary (Attachment.to_dict, since feature level 472 with `message_ids`). */
export type AttachmentSummary = { id: number; name: string; path_id: string; size: number; create_time: number; message_ids: number[] };

export const attachmentSummary = (doc: AttachmentDocument, messageIds: number[] = doc.message_ids): AttachmentSummary => ({
  id: doc.attachment_id,
  name: doc.name,
  path_id: doc.path_id,
  size: doc.size,
  create_time: doc.create_time,
  message_ids: messageIds,
});

/** Where an upload's bytes are kept in the blob store (the path id's random part names it; names need not be safe keys). */
export const uploadBlobKey = (realmId: number, random: string) => `uploads/${realmId}/${random}`;

/** POST /user_uploads's answer: `url`, its deprecated alias `uri`, and the file name. */
export const uploadResponse = (pathId: string, name: string) => ({ url: uploadUrl(pathId), uri: uploadUrl(pathId), filename: name });
