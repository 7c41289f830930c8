export * from './scheduled-message.documents';
export * from './scheduled-message.queries';
export * from './schedule-message.command';
export * from './scheduled-message-jobs';
export * from './scheduled-deliveries';
export * from './deliver-scheduled-message.handler';
