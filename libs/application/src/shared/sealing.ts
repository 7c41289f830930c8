import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const SEAL_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with associated data (a credential entry's id and kind, a content key's id), so
 * that a sealed value copied onto another entry does not open. `v1:` + base64(iv | tag | ciphertext).
 */
export function seal(key: Buffer, aad: string, clear: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return `${SEAL_VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

/** Opens what `seal` sealed; throws when the key, the associated data or the bytes differ. */
export function unseal(key: Buffer, aad: string, sealed: string): string {
  const [version, payload] = sealed.split(':', 2);
  if (version !== SEAL_VERSION || payload === undefined) throw new Error(`unknown credential seal ${JSON.stringify(version)}`);
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

