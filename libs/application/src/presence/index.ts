export * from './presence.queries';
export * from './update-presence.command';
