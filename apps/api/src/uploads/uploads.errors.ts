import { DomainError } from '@app/domain';

/** serve_file: no such upload in the organization ("File not found.", HTTP 404). */
export class UploadFileNotFoundError extends DomainError {
  constructor() {
    super('File not found.', 'BAD_REQUEST', 404);
  }
}

/** serve_file: the file exists but no message linking it is visible to the reader (HTTP 403). */
export class UploadFileForbiddenError extends DomainError {
  constructor() {
    super('You are not authorized to view this file.', 'BAD_REQUEST', 403);
  }
}
