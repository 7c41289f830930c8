export * from './realm-emoji.documents';
export * from './realm-emoji-queries';
export * from './realm-emoji.commands';
export * from './realm-emoji.providers';
