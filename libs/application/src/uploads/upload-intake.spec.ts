import { Readable } from 'node:stream';
import { UploadTooLargeError } from '@app/domain';
import type { AppConfig } from '@app/config';
import type { BlobBody, BlobStorePort } from '../ports/blob-store.port';
import { UploadIntake } from './upload-intake';

/** A blob store that consumes what it is given, chunk by chunk, keeping only the byte count. */
class CountingBlobStore implements Partial<BlobStorePort> {
  readonly sizes = new Map<string, number>();
  readonly deleted: string[] = [];
  async put(key: string, body: BlobBody) {
    let size = 0;
    for await (const chunk of body as AsyncIterable<Uint8Array>) size += chunk.length;
    this.sizes.set(key, size);
    return { size, contentType: null };
  }
  async delete(key: string) {
    this.deleted.push(key);
    return this.sizes.delete(key);
  }
}

const intake = (blobs: CountingBlobStore) =>
  new UploadIntake(blobs as unknown as BlobStorePort, { alphanumeric: (n: number) => 'R'.repeat(n), uuid: () => 'u' }, { maxFileUploadSizeMib: 1 } as AppConfig);

/** An endless body: only a reader that stops at the limit ever finishes with it. */
function* endless(): Generator<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, 1);
  for (;;) yield chunk;
}

describe('UploadIntake', () => {
  it('streams a file into the blob store under a fresh key', async () => {
    const blobs = new CountingBlobStore();
    await expect(intake(blobs).receive(3, Readable.from([Buffer.from('abc'), Buffer.from('de')]), null)).resolves.toEqual({
      random: 'R'.repeat(24), blobKey: `uploads/3/${'R'.repeat(24)}`, size: 5,
    });
  });

  it('stops an endless body at the first byte over the limit and keeps nothing', async () => {
    const blobs = new CountingBlobStore();
    const body = Readable.from(endless());
    await expect(intake(blobs).receive(3, body, null)).rejects.toThrow(UploadTooLargeError);
    expect(blobs.sizes.size).toBe(0);
    expect(blobs.deleted).toEqual([`uploads/3/${'R'.repeat(24)}`]);
    body.destroy();
  });
});
