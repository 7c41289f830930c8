export * from './push-registration.documents';
export * from './push-registration-queries';
export * from './push-devices.commands';
export * from './push-devices.handlers';
export * from './push-devices.providers';
