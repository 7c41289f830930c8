import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { contentKeyStoreContract, describeIfServer, makeTempDir } from '@app/testing';
import { CONTENT_KEYS_FILE, openContentKeyDatabase, SqliteContentKeyStore } from '@app/infrastructure/embedded/sqlite-content-key-store';
import { MongoContentKeyStore } from '@app/infrastructure/mongodb/mongo-content-key-store';
import { MongoReadStore } from '@app/infrastructure/mongodb/mongo-read-store';

contentKeyStoreContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openContentKeyDatabase(dir.path);
  return { store: new SqliteContentKeyStore(db), cleanup: async () => { db.close(); dir.remove(); } };
});

describe('the embedded content-key store\'s file', () => {
  it('is owner-only (0600) with its WAL and shared-memory files, and a destroyed key leaves no byte of it in the file or the WAL', async () => {
    const dir = makeTempDir();
    try {
      const db = openContentKeyDatabase(dir.path);
      const store = new SqliteContentKeyStore(db);
      const wrapped = `v1:${'Qk9PTQ'.repeat(12)}`;
      await store.getOrCreate([{ scope: 'message:1', candidate: () => ({ keyId: 'key-1', wrapped }) }]);
      for (const file of [CONTENT_KEYS_FILE, `${CONTENT_KEYS_FILE}-wal`, `${CONTENT_KEYS_FILE}-shm`]) {
        expect({ file, mode: statSync(join(dir.path, file)).mode & 0o777 }).toEqual({ file, mode: 0o600 });
      }
      const bytes = () => Buffer.concat([CONTENT_KEYS_FILE, `${CONTENT_KEYS_FILE}-wal`].map((f) => readFileSync(join(dir.path, f)))).toString('latin1');
      db.pragma('wal_checkpoint(PASSIVE)');
      expect(bytes()).toContain(wrapped);
      await store.scheduleDestroy('message:1', new Date('2000-01-01T00:00:00Z'));
      expect(await store.destroyDue(new Date('2000-01-02T00:00:00Z'), 10, () => null)).toBe(1);
      expect(bytes()).not.toContain(wrapped);
      db.close();
    } finally {
      dir.remove();
    }
  });

  it('a punctured batch leaves no byte of its former value (the batch key, wrapped) in the file or the WAL', async () => {
    const dir = makeTempDir();
    try {
      const db = openContentKeyDatabase(dir.path);
      const store = new SqliteContentKeyStore(db);
      const wrapped = `v1:${'QkFUQ0g'.repeat(12)}`;
      const left = `v1:${'TEVGVA'.repeat(2000)}`; // as large as a batch's survivors (about 12 KB: overflow pages)
      await store.getOrCreate([{ scope: 'messages:0-255', candidate: () => ({ keyId: 'batch-1', wrapped }) }]);
      const bytes = () => Buffer.concat([CONTENT_KEYS_FILE, `${CONTENT_KEYS_FILE}-wal`].map((f) => readFileSync(join(dir.path, f)))).toString('latin1');
      db.pragma('wal_checkpoint(PASSIVE)');
      expect(bytes()).toContain(wrapped);
      await store.schedulePuncture(7, 'messages:0-255', new Date('2000-01-01T00:00:00Z'));
      expect(await store.destroyDue(new Date('2000-01-02T00:00:00Z'), 10, () => left)).toBe(1);
      expect(await store.get('batch-1')).toEqual({ keyId: 'batch-1', scope: 'messages:0-255', wrapped: left });
      expect(bytes()).not.toContain(wrapped);
      db.close();
    } finally {
      dir.remove();
    }
  });
});

describeIfServer('MONGODB_URI', 'ContentKeyStorePort contract: servers (MongoDB)', (uri) => {
  contentKeyStoreContract('servers (MongoDB)', async () => {
    const readStore = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { store: new MongoContentKeyStore(readStore.db), cleanup: () => readStore.close() };
  });
});
