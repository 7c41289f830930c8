import { describeIfServer, makeTempDir, userMessageStoreContract } from '@app/testing';
import { openSqlite, SqliteUserMessageStore } from '@app/infrastructure';
import { MongoReadStore } from '@app/infrastructure/mongodb/mongo-read-store';
import { MongoUserMessageStore } from '@app/infrastructure/mongodb/mongo-user-message-store';
import { join } from 'node:path';

userMessageStoreContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'read-models.sqlite'));
  return { store: new SqliteUserMessageStore(db), cleanup: async () => { db.close(); dir.remove(); } };
});

// Every apply merges the inbox into the main table at once, so both levels are exercised.
userMessageStoreContract('embedded (SQLite, merging after every change)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'read-models.sqlite'));
  return { store: new SqliteUserMessageStore(db, { compactAtMessages: 1, compactSynchronously: true }), cleanup: async () => { db.close(); dir.remove(); } };
});

describeIfServer('MONGODB_URI', 'UserMessageStorePort contract: servers (MongoDB)', (uri) => {
  userMessageStoreContract('servers (MongoDB)', async () => {
    const readStore = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { store: MongoUserMessageStore.fromReadStore(readStore), cleanup: () => readStore.close() };
  });
});
