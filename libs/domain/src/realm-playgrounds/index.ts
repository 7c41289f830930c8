export * from './realm-playgrounds.streams';
export * from './realm-playgrounds.events';
export * from './realm-playgrounds.errors';
export * from './realm-playgrounds.rules';
export * from './realm-playgrounds.decider';
