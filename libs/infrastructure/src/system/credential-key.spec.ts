import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@app/config';
import { makeTempDir } from '@app/testing';
import { CREDENTIAL_KEY_FILE, loadCredentialKey } from './credential-key';

describe('the credential store\'s key-encryption key', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => (dir = makeTempDir('credential-key-')));
  afterEach(() => dir.remove());

  it('is created in the data directory on first use, owner-only, and the same key is read back afterwards', () => {
    const key = loadCredentialKey({ dataDir: dir.path });
    expect(key).toHaveLength(32);
    const file = join(dir.path, CREDENTIAL_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadCredentialKey({ dataDir: dir.path }).equals(key)).toBe(true);
    expect(readFileSync(file, 'utf8').trim()).toBe(key.toString('base64'));
  });

  it('comes from CREDENTIALS_KEY when it is set (no file is written)', () => {
    const given = randomBytes(32);
    expect(loadCredentialKey({ dataDir: dir.path, credentialsKey: given.toString('base64') }).equals(given)).toBe(true);
    expect(() => statSync(join(dir.path, CREDENTIAL_KEY_FILE))).toThrow();
  });

  it('refuses a key that is not 32 bytes, from the environment or the file', () => {
    expect(() => loadConfig({ DATA_DIR: dir.path, CREDENTIALS_KEY: randomBytes(16).toString('base64') })).toThrow('CREDENTIALS_KEY must be 32 bytes in base64');
    writeFileSync(join(dir.path, CREDENTIAL_KEY_FILE), randomBytes(16).toString('base64'));
    expect(() => loadCredentialKey({ dataDir: dir.path })).toThrow('32 bytes');
  });
});
