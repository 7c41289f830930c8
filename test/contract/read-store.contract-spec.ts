import { readStoreContract, describeIfServer, makeTempDir } from '@app/testing';
import { openSqlite, SqliteReadStore } from '@app/infrastructure';
import { MongoReadStore } from '@app/infrastructure/mongodb/mongo-read-store';
import { join } from 'node:path';

readStoreContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'read-models.sqlite'));
  return { store: new SqliteReadStore(db), cleanup: async () => { db.close(); dir.remove(); } };
});

describeIfServer('MONGODB_URI', 'ReadStorePort contract: servers (MongoDB)', (uri) => {
  readStoreContract('servers (MongoDB)', async () => {
    const store = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { store, cleanup: () => store.close() };
  });
});
