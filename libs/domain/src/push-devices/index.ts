export * from './push-devices.streams';
export * from './push-devices.events';
export * from './push-devices.errors';
export * from './push-devices.rules';
export * from './push-devices.decider';
export * from './base64';
