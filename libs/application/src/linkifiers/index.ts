export * from './linkifier.documents';
export * from './linkifier.queries';
export * from './linkifier.command';
export * from './linkifiers.area';
