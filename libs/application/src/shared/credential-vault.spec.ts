import { randomBytes } from 'node:crypto';
import type { CredentialEntry, CredentialKind, CredentialStorePort } from '../ports/credential-store.port';
import { apiKeyDigest, CredentialVault, digestsMatch, seal, unseal } from './credential-vault';

/** An in-memory store: enough to watch what the vault writes. */
class MemoryStore implements CredentialStorePort {
  readonly entries = new Map<string, CredentialEntry>();
  async put(entry: CredentialEntry) { if (!this.entries.has(entry.id)) this.entries.set(entry.id, entry); }
  async get(id: string) { return this.entries.get(id) ?? null; }
  async remove(id: string) { this.entries.delete(id); }
  async pruneBefore(_userId: number, _kind: CredentialKind, _keepId: string) { return 0; }
  async mark() { return null; }
  async setMark() {}
  async close() {}
}

const KEY = 'K3yOfThirtyTwoAlphanumericChars0';
const HASH = '$2a$04$abcdefghijklmnopqrstuuQm1pXq0fZ6yW2o5wV1xT3bJbq3mZr6e';
let ids = 0;
const random = { alphanumeric: () => 'x', uuid: () => `entry-${++ids}` };

describe('CredentialVault', () => {
  const kek = randomBytes(32);
  const store = new MemoryStore();
  const vault = new CredentialVault(store, kek, random);

  it('stores an API key as its SHA-256 digest and an AES-256-GCM seal: the stored bytes hold neither the key nor anything that opens without the key-encryption key', async () => {
    const id = await vault.storeApiKey(1, 10, KEY);
    const entry = store.entries.get(id)!;
    expect(entry).toMatchObject({ id, realmId: 1, userId: 10, kind: 'api_key', digest: apiKeyDigest(KEY) });
    expect(JSON.stringify(entry)).not.toContain(KEY);
    expect(Buffer.from(entry.sealed.slice(3), 'base64').includes(Buffer.from(KEY))).toBe(false);
    expect(await vault.apiKey(id)).toBe(KEY);
    expect(digestsMatch(apiKeyDigest(KEY), (await vault.apiKeyDigest(id))!)).toBe(true);
    expect(digestsMatch(apiKeyDigest(`${KEY.slice(1)}x`), (await vault.apiKeyDigest(id))!)).toBe(false);
  });

  it('stores a password hash sealed, and reads it back; a key is not a hash nor the other way round', async () => {
    const id = await vault.storePasswordHash(1, 10, HASH);
    expect(JSON.stringify(store.entries.get(id))).not.toContain(HASH);
    expect(store.entries.get(id)!.digest).toBeNull();
    expect(await vault.passwordHash(id)).toBe(HASH);
    expect(await vault.apiKey(id)).toBeNull();
    expect(await vault.passwordHash(await vault.storeApiKey(1, 10, KEY))).toBeNull();
    expect(await vault.apiKey('no-such-entry')).toBeNull();
  });

  it('does not open with another key-encryption key, nor a seal moved onto another entry', async () => {
    const id = await vault.storeApiKey(1, 10, KEY);
    await expect(new CredentialVault(store, randomBytes(32), random).apiKey(id)).rejects.toThrow();
    const sealed = seal(kek, `api_key:${id}`, KEY);
    expect(unseal(kek, `api_key:${id}`, sealed)).toBe(KEY);
    expect(() => unseal(kek, 'api_key:another-entry', sealed)).toThrow();
  });

  it('forgets the entry when the command that was to name it fails, and keeps it when it succeeds', async () => {
    await expect(vault.storedFor('entry-failed', () => vault.storeApiKey(1, 10, KEY, 'entry-failed'), async () => { throw new Error('refused'); })).rejects.toThrow('refused');
    expect(store.entries.has('entry-failed')).toBe(false);
    expect(await vault.storedFor('entry-ok', () => vault.storeApiKey(1, 10, KEY, 'entry-ok'), async () => 'done')).toBe('done');
    expect(await vault.apiKey('entry-ok')).toBe(KEY);
  });

  it('refuses a key-encryption key that is not 32 bytes', () => {
    expect(() => new CredentialVault(store, randomBytes(16), random)).toThrow('32 bytes');
  });
});
