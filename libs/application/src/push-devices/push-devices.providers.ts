import { LegacyPushTokenHandler, RegisterClientDeviceHandler, RegisterPushDeviceHandler, RemoveClientDeviceHandler } from './push-devices.handler';
import { PushRegistrationQueries } from './push-registration.queries';

export const PUSH_DEVICES_HANDLERS = [RegisterPushDeviceHandler, LegacyPushTokenHandler, RegisterClientDeviceHandler, RemoveClientDeviceHandler];
export const PUSH_DEVICES_QUERIES = [PushRegistrationQueries];
