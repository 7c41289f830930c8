import { readStoreContract, makeTempDir } from '@app/testing';
import { SqliteReadModelCopies } from '@app/infrastructure';

/**
 * The application reads and writes the read models through RoutingReadStore (blue/green copies,
 * docs/operations.md): over the SQLite copies it must keep every promise of the port.
 */
readStoreContract('embedded (SQLite copies) behind RoutingReadStore', async () => {
  const dir = makeTempDir();
  const live = SqliteReadModelCopies.openLive(dir.path, 'normal');
  return { store: live.readStore, cleanup: async () => { await live.copies.close(); dir.remove(); } };
});
