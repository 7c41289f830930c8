export * from './reaction.documents';
export * from './reaction-queries';
export * from './reaction.commands';
export * from './reactions.client-events';
