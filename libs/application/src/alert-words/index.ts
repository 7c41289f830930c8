export * from './alert-word.documents';
export * from './alert-word.queries';
export * from './alert-words.command';
