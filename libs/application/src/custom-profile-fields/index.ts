export * from './custom-profile-field.documents';
export * from './custom-profile-field-queries';
export * from './custom-profile-field.commands';
export * from './profile-data.commands';
export * from './custom-profile-fields.providers';
