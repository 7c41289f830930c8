import { GridFSBucket, MongoClient, type Db } from 'mongodb';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobBody, type BlobMetadata, type BlobStorePort, blobKeySegments } from '@app/application';

type FileMetadata = { contentType: string | null };

/**
 * The servers blob store: MongoDB GridFS, one file per key (its `filename`), the content type in
 * the file's metadata. A put uploads a new file, then removes older files of the key, so readers
 * see the old object or the new one, never a mix; reads take the newest file of a key.
 */
export class GridFsBlobStore implements BlobStorePort {
  private constructor(
    private readonly client: MongoClient | null,
    private readonly db: Db,
    private readonly bucket: GridFSBucket,
  ) {}

  static async connect(uri: string, dbName: string, bucketName = 'blobs'): Promise<GridFsBlobStore> {
    const client = await MongoClient.connect(uri);
    const db = client.db(dbName);
    return new GridFsBlobStore(client, db, new GridFSBucket(db, { bucketName }));
  }

  private async files(key: string) {
    blobKeySegments(key);
    return this.bucket.find({ filename: key }).sort({ uploadDate: -1, _id: -1 }).toArray();
  }

  async put(key: string, body: BlobBody, options: { contentType?: string | null } = {}): Promise<BlobMetadata> {
    const previous = await this.files(key);
    const metadata: FileMetadata = { contentType: options.contentType ?? null };
    const upload = this.bucket.openUploadStream(key, { metadata });
    const source = body instanceof Uint8Array ? Readable.from([body]) : body instanceof Readable ? body : Readable.from(body);
    try {
      await pipeline(source, upload);
    } catch (error) {
      // A failed body (an upload cut off at its size limit) leaves no chunks behind: destroying the stream does not remove them.
      await upload.abort().catch(() => undefined);
      throw error;
    }
    for (const file of previous) await this.bucket.delete(file._id).catch(() => undefined);
    return { size: upload.length, contentType: metadata.contentType };
  }

  private async newest(key: string) {
    const [file] = await this.files(key);
    return file ? { file, metadata: { size: file.length, contentType: (file.metadata as FileMetadata | undefined)?.contentType ?? null } } : null;
  }

  async get(key: string) {
    const found = await this.newest(key);
    if (!found) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of this.bucket.openDownloadStream(found.file._id)) chunks.push(chunk as Buffer);
    return { ...found.metadata, data: Buffer.concat(chunks) };
  }

  async open(key: string) {
    const found = await this.newest(key);
    return found ? { ...found.metadata, stream: this.bucket.openDownloadStream(found.file._id) as unknown as Readable } : null;
  }

  async delete(key: string): Promise<boolean> {
    const files = await this.files(key);
    for (const file of files) await this.bucket.delete(file._id).catch(() => undefined);
    return files.length > 0;
  }

  async health() {
    try {
      await this.db.command({ ping: 1 });
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {
    await this.client?.close();
  }
}
