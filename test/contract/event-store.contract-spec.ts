import { eventStoreContract, describeIfServer, makeTempDir } from '@app/testing';
import { openSqlite, SqliteEventStore } from '@app/infrastructure';
import { EsdbEventStore } from '@app/infrastructure/eventstoredb/esdb-event-store';
import { join } from 'node:path';

eventStoreContract('embedded (SQLite)', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'events.sqlite'));
  const store = new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() });
  return { store, cleanup: async () => { await store.close(); db.close(); dir.remove(); } };
});

describeIfServer('ESDB_URL', 'EventStorePort contract: servers (EventStoreDB)', (url) => {
  eventStoreContract('servers (EventStoreDB)', async () => {
    const store = EsdbEventStore.connect(url);
    return { store, cleanup: () => store.close() };
  });
});
