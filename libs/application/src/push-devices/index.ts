export * from './push-registration.documents';
export * from './push-registration.queries';
export * from './push-devices.command';
export * from './push-devices.handler';
export * from './push-devices.area';
export * from './push-devices.client-events';
export * from './push-devices.register';
