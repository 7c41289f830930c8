import { statSync } from 'node:fs';
import { join } from 'node:path';
import { credentialStoreContract, describeIfServer, makeTempDir } from '@app/testing';
import { CREDENTIALS_FILE, openCredentialDatabase, SqliteCredentialStore } from '@app/infrastructure/embedded/sqlite-credential-store';
import { MongoCredentialStore } from '@app/infrastructure/mongodb/mongo-credential-store';
import { MongoReadStore } from '@app/infrastructure/mongodb/mongo-read-store';

credentialStoreContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openCredentialDatabase(dir.path);
  return { store: new SqliteCredentialStore(db), cleanup: async () => { db.close(); dir.remove(); } };
});

describe('the embedded credential store\'s file', () => {
  it('is created readable and writable by its owner only (0600), as are its WAL and shared-memory files', () => {
    const dir = makeTempDir();
    try {
      const db = openCredentialDatabase(dir.path);
      new SqliteCredentialStore(db);
      db.prepare("INSERT INTO marks (name, value) VALUES ('x', 'y')").run();
      for (const file of [CREDENTIALS_FILE, `${CREDENTIALS_FILE}-wal`, `${CREDENTIALS_FILE}-shm`]) {
        expect({ file, mode: statSync(join(dir.path, file)).mode & 0o777 }).toEqual({ file, mode: 0o600 });
      }
      db.close();
    } finally {
      dir.remove();
    }
  });
});

describeIfServer('MONGODB_URI', 'CredentialStorePort contract: servers (MongoDB)', (uri) => {
  credentialStoreContract('servers (MongoDB)', async () => {
    const readStore = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { store: new MongoCredentialStore(readStore.db), cleanup: () => readStore.close() };
  });
});
