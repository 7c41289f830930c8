export * from './reactions.streams';
export * from './reactions.events';
export * from './reactions.errors';
export * from './reactions.decider';
