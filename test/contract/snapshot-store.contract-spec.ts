import { join } from 'node:path';
import { describeIfServer, makeTempDir, snapshotStoreContract } from '@app/testing';
import { openSqlite } from '@app/infrastructure';
import { SqliteSnapshotStore } from '@app/infrastructure/embedded/sqlite-snapshot-store';
import { MongoSnapshotStore } from '@app/infrastructure/mongodb/mongo-snapshot-store';
import { MongoReadStore } from '@app/infrastructure/mongodb/mongo-read-store';

snapshotStoreContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'snapshots.sqlite'));
  return { store: new SqliteSnapshotStore(db), cleanup: async () => { db.close(); dir.remove(); } };
});

describeIfServer('MONGODB_URI', 'SnapshotStorePort contract: servers (MongoDB)', (uri) => {
  snapshotStoreContract('servers (MongoDB)', async () => {
    const readStore = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { store: new MongoSnapshotStore(readStore.db), cleanup: () => readStore.close() };
  });
});
