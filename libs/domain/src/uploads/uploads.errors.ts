import { DomainError } from '../shared/domain-error';

/** The JsonableErrors of zerver/views/upload.py and zerver/views/attachments.py (400 BAD_REQUEST). */
export class UploadError extends DomainError {}

/** upload_file_backend: a request without a file. */
export class NoFileUploadedError extends UploadError {
  constructor() {
    super('You must specify a file to upload');
  }
}

/** upload_file_backend: more than one file part. */
export class TooManyFilesUploadedError extends UploadError {
  constructor() {
    super('You may only upload one file at a time');
  }
}

/** upload_file_backend: MAX_FILE_UPLOAD_SIZE. */
export class UploadTooLargeError extends UploadError {
  constructor(maxMib: number) {
    super(`Uploaded file is larger than the allowed limit of ${maxMib} MiB`);
  }
}

/** access_attachment_by_id: no such attachment, or not the caller's. */
export class InvalidAttachmentError extends UploadError {
  constructor() {
    super('Invalid attachment');
  }
}
