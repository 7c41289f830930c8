import { AttachmentQueries } from './attachment.queries';
import { UploadIntake } from './upload-intake';
import { UploadUrlSigner } from './upload-url-signer';
import { DeleteAttachmentHandler, UploadAttachmentHandler } from './uploads.handler';
import { UploadsMessageExtension } from './uploads.message-extension';

export const UPLOADS_HANDLERS = [UploadAttachmentHandler, DeleteAttachmentHandler];
export const UPLOADS_QUERIES = [AttachmentQueries, UploadIntake, UploadUrlSigner, UploadsMessageExtension];
