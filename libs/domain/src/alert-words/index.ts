export * from './alert-words.streams';
export * from './alert-words.events';
export * from './alert-words.errors';
export * from './alert-words.decider';
export * from './alert-words.matcher';
