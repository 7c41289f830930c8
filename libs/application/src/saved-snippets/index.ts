export * from './saved-snippet.documents';
export * from './saved-snippet.queries';
export * from './create-saved-snippet.command';
export * from './edit-saved-snippet.command';
export * from './delete-saved-snippet.command';
