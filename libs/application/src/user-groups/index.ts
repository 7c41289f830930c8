export * from './user-group.documents';
export * from './user-group.queries';
export * from './user-group.command';
export * from './user-groups.area';
