export * from './presence.queries';
export * from './update-presence.command';
export * from './send-typing-notification.command';
export type { TypingRequest } from './typing-notification.rules';
export { PRESENCE_INTERVALS } from './presence.register';
export { presenceClientEvent } from './presence.client-events';
