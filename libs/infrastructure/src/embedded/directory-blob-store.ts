import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { type BlobBody, type BlobMetadata, type BlobStorePort, blobKeySegments, OWNER_ONLY_DIR_MODE, OWNER_ONLY_FILE_MODE } from '@app/application';

const isBuffer = (body: BlobBody): body is Buffer | Uint8Array => body instanceof Uint8Array;

/**
 * The embedded blob store: one file per key under `root/objects/`, with its content type in
 * `root/meta/<key>.json`. Keys are checked segment by segment (blobKeySegments), so a key cannot
 * name anything outside the directory. Writes go to a temporary file renamed into place, so a
 * reader never sees half an object and a crash leaves no partial one under its key.
 */
export class DirectoryBlobStore implements BlobStorePort {
  constructor(private readonly root: string) {}

  private paths(key: string) {
    const segments = blobKeySegments(key);
    return { data: join(this.root, 'objects', ...segments), meta: join(this.root, 'meta', ...segments) + '.json' };
  }

  async put(key: string, body: BlobBody, options: { contentType?: string | null } = {}): Promise<BlobMetadata> {
    const { data, meta } = this.paths(key);
    // Owner-only, whatever the umask: uploads and the upload-signing key live here.
    await mkdir(dirname(data), { recursive: true, mode: OWNER_ONLY_DIR_MODE });
    await mkdir(dirname(meta), { recursive: true, mode: OWNER_ONLY_DIR_MODE });
    const temporary = join(this.root, `.incoming-${randomUUID()}`);
    try {
      if (isBuffer(body)) await writeFile(temporary, body, { mode: OWNER_ONLY_FILE_MODE });
      else await pipeline(body instanceof Readable ? body : Readable.from(body), createWriteStream(temporary, { mode: OWNER_ONLY_FILE_MODE }));
      const { size } = await stat(temporary);
      const metadata: BlobMetadata = { size, contentType: options.contentType ?? null };
      await writeFile(meta, JSON.stringify(metadata), { mode: OWNER_ONLY_FILE_MODE });
      await rename(temporary, data);
      return metadata;
    } finally {
      await rm(temporary, { force: true });
    }
  }

  private async metadata(key: string): Promise<BlobMetadata | null> {
    const { data, meta } = this.paths(key);
    try {
      const { size } = await stat(data);
      const stored = JSON.parse(await readFile(meta, 'utf8').catch(() => '{}')) as Partial<BlobMetadata>;
      return { size, contentType: stored.contentType ?? null };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async get(key: string) {
    const metadata = await this.metadata(key);
    if (!metadata) return null;
    return { ...metadata, data: await readFile(this.paths(key).data) };
  }

  async open(key: string) {
    const metadata = await this.metadata(key);
    return metadata ? { ...metadata, stream: createReadStream(this.paths(key).data) } : null;
  }

  async delete(key: string): Promise<boolean> {
    const { data, meta } = this.paths(key);
    const existed = (await this.metadata(key)) !== null;
    await rm(data, { force: true });
    await rm(meta, { force: true });
    return existed;
  }

  async health() {
    try {
      await mkdir(this.root, { recursive: true, mode: OWNER_ONLY_DIR_MODE });
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {}
}
