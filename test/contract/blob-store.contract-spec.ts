import { blobStoreContract, describeIfServer, makeTempDir } from '@app/testing';
import { DirectoryBlobStore } from '@app/infrastructure';
import { GridFsBlobStore } from '@app/infrastructure/mongodb/gridfs-blob-store';

blobStoreContract('embedded (directory)', async () => {
  const dir = makeTempDir('blobs-');
  return { store: new DirectoryBlobStore(dir.path), cleanup: async () => dir.remove() };
});

describeIfServer('MONGODB_URI', 'BlobStorePort contract: servers (GridFS)', (uri) => {
  blobStoreContract('servers (GridFS)', async () => {
    const store = await GridFsBlobStore.connect(uri, `contract_${Date.now()}`);
    return { store, cleanup: () => store.close() };
  });
});
