import { LegacyPushTokenHandler, RegisterPushDeviceHandler } from './push-devices.handler';
import { PushRegistrationQueries } from './push-registration.queries';

export const PUSH_DEVICES_HANDLERS = [RegisterPushDeviceHandler, LegacyPushTokenHandler];
export const PUSH_DEVICES_QUERIES = [PushRegistrationQueries];
