import type { Provider } from '@nestjs/common';
import { UPLOAD_EVENT_TYPES, uploadsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { UploadsMessageExtension } from './uploads.message-extension';
import { UploadsClientEvents } from './uploads.client-events';
import { AttachmentQueries } from './attachment.queries';
import { UploadIntake } from './upload-intake';
import { UploadUrlSigner } from './upload-url-signer';
import { DeleteAttachmentHandler, UploadAttachmentHandler } from './uploads.handler';

const handlers: Provider[] = [UploadAttachmentHandler, DeleteAttachmentHandler];
const queries: Provider[] = [AttachmentQueries, UploadIntake, UploadUrlSigner];

/** Uploaded files (attachments). */
export const uploadsArea = defineArea({
  name: 'uploads',
  // What the area adds to message objects and narrows (messages/message-extensions.ts).
  providers: [...handlers, ...queries, UploadsMessageExtension],
  exports: queries,
  clientEvents: UploadsClientEvents,
  deciders: [uploadsDecider],
  events: UPLOAD_EVENT_TYPES,
  idSequences: [{ sequence: 'attachment', fields: ['attachmentId'] }],
});
