export * from './saved-snippets.streams';
export * from './saved-snippets.events';
export * from './saved-snippets.errors';
export * from './saved-snippets.rules';
export * from './saved-snippets.decider';
