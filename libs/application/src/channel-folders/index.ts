export * from './channel-folder.documents';
export * from './channel-folder.queries';
export * from './create-channel-folder.command';
export * from './update-channel-folder.command';
export * from './reorder-channel-folders.command';
export * from './change-channel-folder.command';
export * from './channel-folders.area';
