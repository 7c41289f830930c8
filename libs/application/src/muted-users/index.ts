export * from './muted-user.documents';
export * from './muted-user.queries';
export * from './mute-user.command';
