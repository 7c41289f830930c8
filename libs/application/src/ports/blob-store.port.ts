import type { Readable } from 'node:stream';

/**
 * Binary objects (custom emoji images, later uploads) by key. Keys are relative paths of safe
 * segments (`emoji/2/abc.png`): letters, digits, ".", "_" and "-", never "." or ".." alone, so an
 * adapter may map them to files without a way out of its directory.
 */
export type BlobMetadata = { size: number; contentType: string | null };

export type BlobBody = Buffer | Uint8Array | Readable | AsyncIterable<Uint8Array>;

export interface BlobStorePort {
  /** Stores (or replaces) the object; the body may be a Buffer or a stream. Returns what was stored. */
  put(key: string, body: BlobBody, options?: { contentType?: string | null }): Promise<BlobMetadata>;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<(BlobMetadata & { data: Buffer }) | null>;
  /** The object as a stream (for large ones), or null when there is none. */
  open(key: string): Promise<(BlobMetadata & { stream: Readable }) | null>;
  /** Removes the object; true if there was one. */
  delete(key: string): Promise<boolean>;
  health(): Promise<{ ok: boolean; detail?: string }>;
  close(): Promise<void>;
}

export class InvalidBlobKeyError extends Error {
  constructor(key: string) {
    super(`invalid blob key: ${JSON.stringify(key).slice(0, 200)}`);
    this.name = 'InvalidBlobKeyError';
  }
}

const SEGMENT = /^[A-Za-z0-9._-]{1,200}$/;

/** Checks a key and returns its segments; throws InvalidBlobKeyError for anything unsafe. */
export function blobKeySegments(key: string): string[] {
  const segments = key.split('/');
  const safe = key.length > 0 && key.length <= 1024 && segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
  if (!safe) throw new InvalidBlobKeyError(key);
  return segments;
}
