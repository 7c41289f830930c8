export * from './realm-emoji.documents';
export * from './realm-emoji.queries';
export * from './realm-emoji.command';
export * from './realm-emoji.area';
