import type { Response } from 'express';
import { servedInline } from '@app/domain';
import type { AttachmentDocument, BlobStorePort } from '@app/application';
import { UploadFileNotFoundError } from './uploads.errors';

/** Python's urllib.parse.quote (safe "/"), as Zulip's patch_disposition_header writes non-ASCII names. */
const pythonQuote = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

/** zerver/views/upload.py patch_disposition_header: RFC 6266 with RFC 8187 for non-ASCII names. */
export function contentDisposition(fileName: string, attachment: boolean): string {
  const disposition = attachment ? 'attachment' : 'inline';
  // eslint-disable-next-line no-control-regex
  const ascii = /^[\x00-\x7f]*$/.test(fileName);
  const expression = ascii ? `filename="${fileName.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `filename*=utf-8''${pythonQuote(fileName)}`;
  return `${disposition}; ${expression}`;
}

/**
 * What Zulip's nginx sends with uploaded files: nothing in them may run (no scripts, no plugins, a
 * sandboxed document), the type is never sniffed, and the browser may cache them privately.
 */
export const UPLOAD_CONTENT_SECURITY_POLICY = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * serve_local: the file's bytes, inline for Zulip's INLINE_MIME_TYPES (unless `download`), as an
 * attachment otherwise, with the name the path ends in.
 */
export async function sendUpload(response: Response, blobs: BlobStorePort, attachment: AttachmentDocument, download = false): Promise<void> {
  const blob = await blobs.open(attachment.blob_key);
  if (!blob) throw new UploadFileNotFoundError();
  const inline = servedInline(attachment.content_type, download);
  response.status(200);
  response.setHeader('Content-Type', attachment.content_type === 'text/plain' ? 'text/plain; charset=utf-8' : attachment.content_type);
  response.setHeader('Content-Length', String(blob.size));
  response.setHeader('Content-Disposition', contentDisposition(attachment.path_id.split('/').pop()!, !inline));
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Content-Security-Policy', UPLOAD_CONTENT_SECURITY_POLICY);
  response.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  blob.stream.on('error', () => response.destroy());
  blob.stream.pipe(response);
}
