export * from './muted-users.streams';
export * from './muted-users.events';
export * from './muted-users.errors';
export * from './muted-users.decider';
