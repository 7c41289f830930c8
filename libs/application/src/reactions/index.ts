export * from './reaction.documents';
export * from './reaction.queries';
export * from './reaction.command';
export * from './reactions.client-events';
