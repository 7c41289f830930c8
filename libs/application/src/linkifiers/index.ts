export * from './linkifier.documents';
export * from './linkifier-queries';
export * from './linkifier.commands';
export * from './linkifiers.providers';
