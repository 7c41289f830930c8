import { join } from 'node:path';
import { describeIfServer, mailOutboxContract, makeTempDir } from '@app/testing';
import { openSqlite, SqliteMailOutbox } from '@app/infrastructure';
import { MongoMailOutbox } from '@app/infrastructure/mongodb/mongo-mail-outbox';
import { MongoReadStore } from '@app/infrastructure/mongodb/mongo-read-store';

mailOutboxContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'mail-outbox.sqlite'));
  return { outbox: new SqliteMailOutbox(db), cleanup: async () => { db.close(); dir.remove(); } };
});

describeIfServer('MONGODB_URI', 'MailOutboxPort contract: servers (MongoDB)', (uri) => {
  mailOutboxContract('servers (MongoDB)', async () => {
    const readStore = await MongoReadStore.connect(uri, `contract_${Date.now()}`);
    return { outbox: new MongoMailOutbox(readStore.db), cleanup: async () => { await readStore.db.dropDatabase(); await readStore.close(); } };
  });
});
