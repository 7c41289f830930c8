import { eventStoreContract, makeTempDir } from '@app/testing';
import { openSqlite, SqliteEventStore } from '@app/infrastructure';
import { UpcastingEventStore, upcasterRegistry } from '@app/application';
import { join } from 'node:path';

/**
 * The application uses the event store through the upcasting wrapper (docs/operations.md, "Event
 * versions"): it must keep every promise of the port (the contract's events have no upcasters,
 * so they pass through unchanged).
 */
eventStoreContract('embedded (SQLite) behind the upcasting wrapper', async () => {
  const dir = makeTempDir();
  const db = openSqlite(join(dir.path, 'events.sqlite'));
  const store = new UpcastingEventStore(new SqliteEventStore(db, { pollIntervalMs: 20, now: () => new Date() }), upcasterRegistry());
  return { store, cleanup: async () => { await store.close(); db.close(); dir.remove(); } };
});
