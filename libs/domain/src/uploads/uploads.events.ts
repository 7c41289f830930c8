/**
 * A file was uploaded (zerver/lib/upload upload_message_attachment → create_attachment). The bytes
 * are already in the blob store under `blobKey`; `pathId` is Zulip's `<realm_id>/<random>/<name>`.
 */
export type AttachmentUploaded = {
  type: 'AttachmentUploaded';
  data: {
    realmId: number;
    attachmentId: number;
    ownerId: number;
    pathId: string;
    /** The file name as the client sent it (Attachment.file_name). */
    name: string;
    size: number;
    contentType: string;
    blobKey: string;
    /** How the bytes arrived: a multipart POST /user_uploads or a tus upload. */
    via: 'multipart' | 'tus';
    at: string;
  };
};

/** DELETE /attachments/{id} (remove_attachment): the owner removed the file and its record. */
export type AttachmentDeleted = {
  type: 'AttachmentDeleted';
  data: { realmId: number; attachmentId: number; ownerId: number; pathId: string; size: number; blobKey: string; actorId: number; at: string };
};

export type UploadEvent = AttachmentUploaded | AttachmentDeleted;

export const UPLOAD_EVENT_TYPES: readonly UploadEvent['type'][] = ['AttachmentUploaded', 'AttachmentDeleted'];
