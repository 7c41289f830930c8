import type { Decider } from '../shared/decider';
import { InvalidAttachmentError, NoFileUploadedError, TooManyFilesUploadedError, UploadTooLargeError } from './uploads.errors';
import type { UploadEvent } from './uploads.events';

type Meta = { realmId: number; actorId: number; now: string };

/**
 * POST /user_uploads or a finished tus upload (upload_file_backend). The bytes are already in the
 * blob store under `blobKey` (streamed there under the size limit); id and path id come from the handler.
 */
export type UploadAttachment = {
  type: 'UploadAttachment';
  data: Meta & {
    attachmentId: number;
    pathId: string;
    name: string;
    contentType: string;
    blobKey: string;
    via: 'multipart' | 'tus';
    /** What the request carried. */
    fileCount: number;
    size: number;
    maxFileUploadSizeMib: number;
  };
};

/** DELETE /attachments/{attachment_id} (remove_attachment). */
export type DeleteAttachment = { type: 'DeleteAttachment'; data: Meta & { attachmentId: number } };

export type UploadCommand = UploadAttachment | DeleteAttachment;

export type UploadsState = { attachments: Record<number, { pathId: string; size: number; blobKey: string; deleted: boolean }> };

/** upload_file_backend's checks, in Zulip's order (also judged before any byte is kept, with size 0). */
export function checkUpload(d: Pick<UploadAttachment['data'], 'fileCount' | 'size' | 'maxFileUploadSizeMib'>): void {
  if (d.fileCount === 0) throw new NoFileUploadedError();
  if (d.fileCount !== 1) throw new TooManyFilesUploadedError();
  if (d.size > d.maxFileUploadSizeMib * 1024 * 1024) throw new UploadTooLargeError(d.maxFileUploadSizeMib);
}

/** One user's uploads (stream `attachments-<ownerId>`). */
export const uploadsDecider: Decider<UploadCommand, UploadEvent, UploadsState> = {
  snapshot: { name: 'uploads', version: 1 },
  initialState: () => ({ attachments: {} }),

  decide: (command, state) => {
    const { realmId, actorId, now: at } = command.data;
    if (command.type === 'UploadAttachment') {
      const d = command.data;
      checkUpload(d);
      return [{
        type: 'AttachmentUploaded',
        data: { realmId, attachmentId: d.attachmentId, ownerId: actorId, pathId: d.pathId, name: d.name, size: d.size, contentType: d.contentType, blobKey: d.blobKey, via: d.via, at },
      }];
    }
    // access_attachment_by_id(needs_owner=True): the stream is the actor's, so "not theirs" = "not here".
    const attachment = state.attachments[command.data.attachmentId];
    if (!attachment || attachment.deleted) throw new InvalidAttachmentError();
    return [{
      type: 'AttachmentDeleted',
      data: { realmId, attachmentId: command.data.attachmentId, ownerId: actorId, pathId: attachment.pathId, size: attachment.size, blobKey: attachment.blobKey, actorId, at },
    }];
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'AttachmentUploaded':
        return { attachments: { ...state.attachments, [event.data.attachmentId]: { pathId: event.data.pathId, size: event.data.size, blobKey: event.data.blobKey, deleted: false } } };
      case 'AttachmentDeleted': {
        const existing = state.attachments[event.data.attachmentId];
        return existing ? { attachments: { ...state.attachments, [event.data.attachmentId]: { ...existing, deleted: true } } } : state;
      }
      default:
        return state;
    }
  },
};
