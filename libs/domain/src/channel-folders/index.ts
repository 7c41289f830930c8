export * from './channel-folders.streams';
export * from './channel-folders.events';
export * from './channel-folders.errors';
export * from './channel-folders.rules';
export * from './channel-folders.decider';
