export * from './bot-storage.documents';
export * from './bot-storage.queries';
export * from './bot-storage.command';
