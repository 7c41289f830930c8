import { type MessageAccessFacts, mayReadLinkedFile } from '../messages/message-access.rules';

/**
 * Pure rules of uploads (zerver/lib/upload, zerver/lib/attachments, zerver/models
 * validate_attachment_request): file names, path ids, links in message content, content types
 * served inline, and who may read a file.
 */

/** The longest stored file name (code points); Zulip's path ids must fit its 255-character limits. */
export const MAX_UPLOAD_FILE_NAME_LENGTH = 150;

/**
 * zerver/lib/upload/base.py sanitize_name: NFKC, only word characters, whitespace, "." and "-"
 * kept, runs of "-" and whitespace become one "-"; nothing left → "uploaded-file".
 */
export function sanitizeUploadName(value: string): string {
  let name = value.normalize('NFKC').replace(/[^\p{L}\p{N}\p{M}_\s.-]/gu, '').trim();
  name = name.replace(/[-\s]+/g, '-');
  name = [...name].slice(-MAX_UPLOAD_FILE_NAME_LENGTH).join('');
  return name === '' || name === '.' || name === '..' ? 'uploaded-file' : name;
}

/** Zulip's path_id: `<realm_id>/<random>/<sanitized name>` (the S3 backend's shape). */
export const uploadPathId = (realmId: number, random: string, fileName: string) => `${realmId}/${random}/${sanitizeUploadName(fileName)}`;

/** The URL an upload is linked by in messages (`/user_uploads/<path_id>`). */
export const uploadUrl = (pathId: string) => `/user_uploads/${pathId}`;

const PATH_ID_SHAPE = /^\d{1,15}\/[A-Za-z0-9_-]{1,64}\/[\p{L}\p{N}\p{M}_.-]{1,600}$/u;

/** Whether a string has the shape of a path id this server hands out. */
export const isUploadPathId = (value: string) => PATH_ID_SHAPE.test(value) && !value.endsWith('/.') && !value.endsWith('/..');

const LINK = /\/user_uploads\/(\d{1,15}\/[A-Za-z0-9_-]{1,64}\/(?:[\p{L}\p{N}\p{M}_.-]|%[0-9A-Fa-f]{2})+)/gu;

/**
 * The path ids a message's Markdown links to (Zulip reads them from the rendered links:
 * `[name](/user_uploads/<path_id>)` or the same under the server's URL), in order, each once.
 * Percent-escapes are decoded; a trailing sentence dot is not part of the link.
 */
export function linkedUploadPathIds(content: string): string[] {
  if (!content.includes('/user_uploads/')) return [];
  const found = new Set<string>();
  for (const match of content.matchAll(LINK)) {
    const raw = match[1];
    // "see /user_uploads/…/a.txt." — the dot may end the sentence or the name: both are candidates.
    const candidates = raw.endsWith('.') ? [raw, raw.replace(/\.+$/, '')] : [raw];
    for (const candidate of candidates) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(candidate);
      } catch {
        continue;
      }
      if (isUploadPathId(decoded)) found.add(decoded);
    }
  }
  return [...found];
}

/** zerver/lib/upload/base.py INLINE_MIME_TYPES: types shown in the browser; everything else downloads. */
export const INLINE_MIME_TYPES: readonly string[] = [
  'application/pdf',
  'audio/aac', 'audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'audio/webm',
  'image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp',
  'text/plain',
  'video/mp4', 'video/webm',
];

const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf', aac: 'audio/aac', flac: 'audio/flac', m4a: 'audio/mp4', mp3: 'audio/mpeg', wav: 'audio/wav', weba: 'audio/webm',
  apng: 'image/apng', avif: 'image/avif', gif: 'image/gif', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp',
  svg: 'image/svg+xml', txt: 'text/plain', log: 'text/plain', md: 'text/markdown', csv: 'text/csv', html: 'text/html', htm: 'text/html',
  json: 'application/json', xml: 'text/xml', zip: 'application/zip', gz: 'application/gzip', tar: 'application/x-tar',
  mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime', doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,127}$/;

/**
 * upload_message_attachment_from_request: the part's declared type, or (when it declares none or
 * application/octet-stream) a guess from the file name; unknown → application/octet-stream.
 */
export function uploadContentType(declared: string | null | undefined, fileName: string): string {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (MIME.test(type) && type !== 'application/octet-stream') return type;
  const extension = /\.([A-Za-z0-9]{1,10})$/.exec(fileName)?.[1].toLowerCase();
  return (extension && BY_EXTENSION[extension]) || 'application/octet-stream';
}

/** serve_local: inline for the safe types, as an attachment for everything else (or when asked to download). */
export const servedInline = (contentType: string, download = false) => !download && INLINE_MIME_TYPES.includes(contentType);

/** What access to one message that links an upload depends on (has_message_access's facts). */
export type LinkingMessageFacts = MessageAccessFacts;

/**
 * validate_attachment_request: the owner always; anyone else only through a message that links
 * the file and that they received or can read (mayReadLinkedFile, the message access rule).
 */
export function canReadAttachment(
  reader: { userId: number; role: string },
  attachment: { ownerId: number },
  linkingMessages: readonly LinkingMessageFacts[],
): boolean {
  return mayReadLinkedFile(reader, attachment.ownerId, linkingMessages);
}
