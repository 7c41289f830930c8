export * from './custom-profile-field.documents';
export * from './custom-profile-field.queries';
export * from './custom-profile-field.command';
export * from './profile-data.command';
export * from './custom-profile-fields.area';
