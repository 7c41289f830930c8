import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CREDENTIAL_KEY_BYTES } from '@app/application';

export const CREDENTIAL_KEY_FILE = 'credentials.key';

const decode = (text: string, origin: string): Buffer => {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== CREDENTIAL_KEY_BYTES) throw new Error(`${origin}: the credential key must be ${CREDENTIAL_KEY_BYTES} bytes in base64`);
  return key;
};

/**
 * The credential store's key-encryption key: CREDENTIALS_KEY when set, else
 * `DATA_DIR/credentials.key`, created owner-only (0600) with 32 random bytes on first use. Never
 * stored in a database, so a copy of the databases alone opens no credential.
 */
export function loadCredentialKey(config: { dataDir: string; credentialsKey?: string | null }): Buffer {
  if (config.credentialsKey) return decode(config.credentialsKey, 'CREDENTIALS_KEY');
  const file = join(config.dataDir, CREDENTIAL_KEY_FILE);
  mkdirSync(config.dataDir, { recursive: true });
  if (!existsSync(file)) {
    try {
      writeFileSync(file, `${randomBytes(CREDENTIAL_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process on this data directory created it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  // A process that lost the race may read before the winner's single write landed: wait for it.
  for (let attempt = 0; ; attempt++) {
    const text = readFileSync(file, 'utf8');
    if (text.trim() !== '' || attempt >= 50) return decode(text, file);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}
