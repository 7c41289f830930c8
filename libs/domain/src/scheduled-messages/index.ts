export * from './scheduled-messages.events';
export * from './scheduled-messages.errors';
export * from './scheduled-messages.streams';
export * from './scheduled-messages.decider';
export * from './scheduled-messages.notification';
