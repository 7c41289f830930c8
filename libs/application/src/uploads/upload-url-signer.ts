import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@app/domain';
import type { BlobStorePort } from '../ports/blob-store.port';
import type { ClockPort } from '../ports/clock.port';
import type { RandomPort } from '../ports/random.port';
import { BLOB_STORE, CLOCK, RANDOM } from '../ports/tokens';

/** zerver/lib/upload/local.py: temporary URLs live 60 seconds. */
export const TEMPORARY_UPLOAD_URL_SECONDS = 60;

const KEY_BLOB = 'secrets/upload-url-signing-key';

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * Short-lived, signed URLs of uploads (generate_unauthed_file_access_url and
 * get_local_file_path_id_from_token): `/user_uploads/temporary/<token>/<file name>`, where the token
 * signs the path id and an expiry. The signing key is kept in the blob store, so every API
 * instance sharing the store accepts every other one's tokens.
 */
@Injectable()
export class UploadUrlSigner {
  private key: Promise<Buffer> | undefined;

  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStorePort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  private signingKey(): Promise<Buffer> {
    this.key ??= (async () => {
      const existing = await this.blobs.get(KEY_BLOB);
      if (existing && existing.data.length >= 32) return existing.data;
      const created = Buffer.from(this.random.alphanumeric(64), 'utf8');
      await this.blobs.put(KEY_BLOB, created, { contentType: 'application/octet-stream' });
      // Two instances may race to create it: whichever write landed last is the key.
      return (await this.blobs.get(KEY_BLOB))?.data ?? created;
    })().catch((error) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async mac(payload: string): Promise<Buffer> {
    return createHmac('sha256', await this.signingKey()).update(payload).digest();
  }

  /** The temporary URL of a path id (its last segment is the file name). */
  async temporaryUrl(pathId: string): Promise<string> {
    const expires = Math.floor(this.clock.now().getTime() / 1000) + TEMPORARY_UPLOAD_URL_SECONDS;
    const payload = base64url(JSON.stringify({ p: pathId, e: expires }));
    const token = `${payload}.${(await this.mac(payload)).toString('base64url')}`;
    const fileName = pathId.split('/').pop()!;
    return `/user_uploads/temporary/${token}/${encodeURIComponent(fileName)}`;
  }

  /** serve_local_file_unauthed: the path id a token names; "Invalid token" / "Invalid filename" otherwise. */
  async pathIdOf(token: string, fileName: string): Promise<string> {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) throw new DomainError('Invalid token');
    const expected = await this.mac(payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new DomainError('Invalid token');
    let claims: { p?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { p?: unknown; e?: unknown };
    } catch {
      throw new DomainError('Invalid token');
    }
    if (typeof claims.p !== 'string' || typeof claims.e !== 'number') throw new DomainError('Invalid token');
    if (claims.e < Math.floor(this.clock.now().getTime() / 1000)) throw new DomainError('Invalid token');
    if (claims.p.split('/').pop() !== fileName) throw new DomainError('Invalid filename');
    return claims.p;
  }
}
