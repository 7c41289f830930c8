import { AttachmentQueries } from './attachment.queries';
import { UploadIntake } from './upload-intake';
import { UploadUrlSigner } from './upload-url-signer';
import { DeleteAttachmentHandler, UploadAttachmentHandler } from './uploads.handler';

export const UPLOADS_HANDLERS = [UploadAttachmentHandler, DeleteAttachmentHandler];
export const UPLOADS_QUERIES = [AttachmentQueries, UploadIntake, UploadUrlSigner];
