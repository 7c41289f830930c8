export * from './presence.queries';
export * from './update-presence.command';
export { PRESENCE_INTERVALS } from './presence.register';
export { presenceClientEvent } from './presence.client-events';
