import type { Provider } from '@nestjs/common';
import { join } from 'node:path';
import { BLOB_STORE, type BlobStorePort } from '@app/application';
import type { AppConfig } from '@app/config';
import { DirectoryBlobStore } from './embedded/directory-blob-store';

/**
 * The blob store follows the read store's driver: a directory under DATA_DIR when embedded,
 * GridFS in the read store's MongoDB database in servers mode (loaded only when chosen).
 */
export async function openBlobStore(config: AppConfig): Promise<BlobStorePort> {
  if (config.readStoreDriver === 'servers') {
    const { GridFsBlobStore } = await import('./mongodb/gridfs-blob-store');
    return GridFsBlobStore.connect(config.mongodbUri, config.mongodbDb);
  }
  return new DirectoryBlobStore(join(config.dataDir, 'blobs'));
}

/** Closed with the application (Nest calls the hook on the instance the factory returned). */
export const blobStoreProvider = (config: AppConfig): Provider => ({
  provide: BLOB_STORE,
  useFactory: async () => {
    const store = await openBlobStore(config);
    return Object.assign(store, { onApplicationShutdown: () => store.close() });
  },
});
