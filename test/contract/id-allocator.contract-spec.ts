import { idAllocatorContract, describeIfServer, makeTempDir } from '@app/testing';
import { openSqlite, SqliteIdAllocator } from '@app/infrastructure';
import { MongoReadStore } from '@app/infrastructure/mongodb/mongo-read-store';
import { MongoIdAllocator } from '@app/infrastructure/mongodb/mongo-id-allocator';
import { join } from 'node:path';

idAllocatorContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'events.sqlite'));
  return { allocator: new SqliteIdAllocator(db), cleanup: async () => { db.close(); dir.remove(); } };
});

describeIfServer('MONGODB_URI', 'IdAllocatorPort contract: servers (MongoDB)', (uri) => {
  idAllocatorContract('servers (MongoDB)', async () => {
    const store = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { allocator: MongoIdAllocator.fromReadStore(store), cleanup: () => store.close() };
  });
});
