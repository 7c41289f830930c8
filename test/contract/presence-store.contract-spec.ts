import { join } from 'node:path';
import { describeIfServer, makeTempDir, presenceStoreContract } from '@app/testing';
import { openSqlite } from '@app/infrastructure';
import { SqlitePresenceStore } from '@app/infrastructure/embedded/sqlite-presence-store';
import { MongoPresenceStore } from '@app/infrastructure/mongodb/mongo-presence-store';
import { MongoReadStore } from '@app/infrastructure/mongodb/mongo-read-store';

presenceStoreContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'presence.sqlite'));
  return { store: new SqlitePresenceStore(db), cleanup: async () => { db.close(); dir.remove(); } };
});

describeIfServer('MONGODB_URI', 'PresenceStorePort contract: servers (MongoDB)', (uri) => {
  presenceStoreContract('servers (MongoDB)', async () => {
    const readStore = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { store: new MongoPresenceStore(readStore.db), cleanup: () => readStore.close() };
  });
});
