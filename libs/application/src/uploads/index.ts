export * from './uploads.documents';
export * from './uploads.command';
export * from './uploads.area';
export * from './attachment.queries';
export * from './upload-intake';
export * from './detached-uploads';
export * from './upload-url-signer';
