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

// Every apply writes its messages' rows straight into the main table, as a catch-up's batches do.
userMessageStoreContract('embedded (SQLite, rows written directly as in a catch-up)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'read-models.sqlite'));
  return { store: new SqliteUserMessageStore(db, { directAtMessages: 1 }), cleanup: async () => { db.close(); dir.remove(); } };
});

// The inbox bounded at one message: every apply past it merges a step of one row before it returns.
userMessageStoreContract('embedded (SQLite, inbox bounded at one message, one-row steps)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'read-models.sqlite'));
  return { store: new SqliteUserMessageStore(db, { maxInboxMessages: 1, mergeStepRows: 1 }), cleanup: async () => { db.close(); dir.remove(); } };
});

// Every row written, as before implied recipients (the layout of a database from before them).
userMessageStoreContract('embedded (SQLite, every row written)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'read-models.sqlite'));
  return { store: new SqliteUserMessageStore(db, { impliedRecipients: false }), cleanup: async () => { db.close(); dir.remove(); } };
});

describeIfServer('MONGODB_URI', 'UserMessageStorePort contract: servers (MongoDB)', (uri) => {
  userMessageStoreContract('servers (MongoDB)', async () => {
    const readStore = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { store: MongoUserMessageStore.fromReadStore(readStore), cleanup: () => readStore.close() };
  });
});
