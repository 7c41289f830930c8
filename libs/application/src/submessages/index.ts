export * from './submessage.documents';
export * from './submessage.queries';
export * from './submessage.command';
export * from './submessages.client-events';
