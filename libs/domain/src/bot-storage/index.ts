export * from './bot-storage.streams';
export * from './bot-storage.events';
export * from './bot-storage.errors';
export * from './bot-storage.rules';
export * from './bot-storage.decider';
