export * from './presence.rules';
export * from './presence.errors';
