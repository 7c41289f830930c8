import { attachmentDeleted, attachmentUploaded, deciderSpec } from '@app/testing';
import {
  InvalidAttachmentError,
  NoFileUploadedError,
  TooManyFilesUploadedError,
  type UploadAttachment,
  type UploadCommand,
  uploadsDecider,
  UploadTooLargeError,
} from '@app/domain';

const given = deciderSpec(uploadsDecider);
const AT = '2026-01-01T00:00:00.000Z';
const PATH = '1/AbCdEfGhIjKlMnOpQrStUvWx/zulip.txt';
const BLOB = 'uploads/1/AbCdEfGhIjKlMnOpQrStUvWx';

const upload = (patch: Partial<UploadAttachment['data']> = {}): UploadCommand => ({
  type: 'UploadAttachment',
  data: {
    realmId: 1, actorId: 10, now: AT, attachmentId: 1, pathId: PATH, name: 'zulip.txt', contentType: 'text/plain', blobKey: BLOB, via: 'multipart',
    fileCount: 1, size: 6, maxFileUploadSizeMib: 25, ...patch,
  },
});
const remove = (attachmentId = 1, actorId = 10): UploadCommand => ({ type: 'DeleteAttachment', data: { realmId: 1, actorId, now: AT, attachmentId } });

describe('uploadsDecider', () => {
  describe('UploadAttachment', () => {
    it('records the upload with its owner, path id and size', () => given([]).when(upload()).then([attachmentUploaded()]));

    it('records how the bytes arrived', () =>
      given([]).when(upload({ via: 'tus', attachmentId: 2 })).then([attachmentUploaded({ via: 'tus', attachmentId: 2 })]));

    it('refuses a request without a file', () =>
      given([]).when(upload({ fileCount: 0, size: 0 })).thenThrows(NoFileUploadedError, 'You must specify a file to upload'));

    it('refuses more than one file', () =>
      given([]).when(upload({ fileCount: 2 })).thenThrows(TooManyFilesUploadedError, 'You may only upload one file at a time'));

    it('refuses a file over the limit, and accepts one of exactly the limit', () => {
      given([]).when(upload({ size: 1024 * 1024 + 1, maxFileUploadSizeMib: 1 })).thenThrows(UploadTooLargeError, 'Uploaded file is larger than the allowed limit of 1 MiB');
      given([]).when(upload({ size: 1024 * 1024, maxFileUploadSizeMib: 1 })).then([attachmentUploaded({ size: 1024 * 1024 })]);
    });
  });

  describe('DeleteAttachment', () => {
    it("deletes the owner's attachment, naming its path, size and bytes", () =>
      given([attachmentUploaded()]).when(remove()).then([attachmentDeleted()]));

    it('"Invalid attachment" for an id not on the owner\'s stream', () =>
      given([attachmentUploaded()]).when(remove(7)).thenThrows(InvalidAttachmentError, 'Invalid attachment'));

    it('"Invalid attachment" for an already deleted one', () =>
      given([attachmentUploaded(), attachmentDeleted()]).when(remove()).thenThrows(InvalidAttachmentError, 'Invalid attachment'));
  });
});
