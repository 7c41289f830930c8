export * from './drafts.streams';
export * from './drafts.events';
export * from './drafts.errors';
export * from './drafts.rules';
export * from './drafts.decider';
