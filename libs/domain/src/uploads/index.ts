export * from './uploads.streams';
export * from './uploads.events';
export * from './uploads.errors';
export * from './uploads.rules';
export * from './uploads.decider';
