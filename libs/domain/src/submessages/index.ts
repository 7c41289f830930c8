export * from './submessages.streams';
export * from './submessages.events';
export * from './submessages.errors';
export * from './widgets.rules';
export * from './submessages.decider';
