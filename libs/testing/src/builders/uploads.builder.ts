import type { AttachmentDeleted, AttachmentUploaded } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** Attachment 1, "zulip.txt" (6 bytes), uploaded by user 10 in realm 1, unless overridden. */
export const attachmentUploaded = (overrides: Partial<AttachmentUploaded['data']> = {}): AttachmentUploaded => ({
  type: 'AttachmentUploaded',
  data: {
    realmId: 1, attachmentId: 1, ownerId: 10, pathId: '1/AbCdEfGhIjKlMnOpQrStUvWx/zulip.txt', name: 'zulip.txt', size: 6,
    contentType: 'text/plain', blobKey: 'uploads/1/AbCdEfGhIjKlMnOpQrStUvWx', via: 'multipart', at: AT, ...overrides,
  },
});

export const attachmentDeleted = (overrides: Partial<AttachmentDeleted['data']> = {}): AttachmentDeleted => ({
  type: 'AttachmentDeleted',
  data: {
    realmId: 1, attachmentId: 1, ownerId: 10, pathId: '1/AbCdEfGhIjKlMnOpQrStUvWx/zulip.txt', size: 6, blobKey: 'uploads/1/AbCdEfGhIjKlMnOpQrStUvWx',
    actorId: 10, at: AT, ...overrides,
  },
});
