export * from './invitations.decider';
export * from './invitations.errors';
export * from './invitations.events';
export * from './invitations.rules';
export * from './invitations.streams';
