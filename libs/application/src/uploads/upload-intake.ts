import { Inject, Injectable } from '@nestjs/common';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { UploadTooLargeError } from '@app/domain';
import type { AppConfig } from '@app/config';
import type { BlobStorePort } from '../ports/blob-store.port';
import type { RandomPort } from '../ports/random.port';
import { APP_CONFIG, BLOB_STORE, RANDOM } from '../ports/tokens';
import { uploadBlobKey } from './uploads.documents';

/** Counts bytes on their way to the blob store and fails the write as soon as there are too many. */
class SizeLimit extends Transform {
  size = 0;
  constructor(private readonly maxBytes: number, private readonly maxMib: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) callback(new UploadTooLargeError(this.maxMib));
    else callback(null, chunk);
  }
}

/**
 * Receives an upload's bytes: streams them into the blob store under a fresh key, never holding
 * more than a chunk in memory, and stops (deleting what was written) at the first byte over
 * MAX_FILE_UPLOAD_SIZE_MIB, so an oversized body is never read whole.
 */
@Injectable()
export class UploadIntake {
  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStorePort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get maxFileUploadSizeMib(): number {
    return this.config.maxFileUploadSizeMib;
  }

  get maxBytes(): number {
    return this.config.maxFileUploadSizeMib * 1024 * 1024;
  }

  /** A fresh random path segment and blob key (Zulip: secrets.token_urlsafe(18), 24 characters). */
  allocate(realmId: number): { random: string; blobKey: string } {
    const random = this.random.alphanumeric(24);
    return { random, blobKey: uploadBlobKey(realmId, random) };
  }

  /** Streams `body` under a fresh key; UploadTooLargeError (nothing kept) past the limit. */
  async receive(realmId: number, body: Readable, contentType: string | null): Promise<{ random: string; blobKey: string; size: number }> {
    const { random, blobKey } = this.allocate(realmId);
    const limit = new SizeLimit(this.maxBytes, this.maxFileUploadSizeMib);
    body.on('error', (error) => limit.destroy(error));
    // The store may attach its own listeners only after some awaits; an early failure is its rejection, not a crash.
    limit.on('error', () => undefined);
    try {
      const { size } = await this.blobs.put(blobKey, body.pipe(limit), { contentType });
      return { random, blobKey, size };
    } catch (error) {
      body.unpipe(limit);
      await this.blobs.delete(blobKey).catch(() => false);
      throw limit.errored instanceof UploadTooLargeError ? limit.errored : error;
    }
  }

  async discard(blobKey: string): Promise<void> {
    await this.blobs.delete(blobKey).catch(() => false);
  }
}
