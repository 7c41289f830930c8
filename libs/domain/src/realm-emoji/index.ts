export * from './realm-emoji.streams';
export * from './realm-emoji.events';
export * from './realm-emoji.errors';
export * from './realm-emoji.rules';
export * from './realm-emoji.decider';
