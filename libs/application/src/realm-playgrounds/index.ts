export * from './realm-playground.documents';
export * from './realm-playground.queries';
export * from './realm-playground.command';
export * from './realm-playgrounds.area';
