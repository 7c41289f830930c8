import type { Provider } from '@nestjs/common';
import { PUSH_DEVICE_EVENT_TYPES, pushDevicesDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { PushDevicesClientEvents } from './push-devices.client-events';
import { PushDevicesRegisterSections } from './push-devices.register';
import { LegacyPushTokenHandler, RegisterClientDeviceHandler, RegisterPushDeviceHandler, RemoveClientDeviceHandler } from './push-devices.handler';
import { PushRegistrationQueries } from './push-registration.queries';

const handlers: Provider[] = [RegisterPushDeviceHandler, LegacyPushTokenHandler, RegisterClientDeviceHandler, RemoveClientDeviceHandler];
const queries: Provider[] = [PushRegistrationQueries];

/** Client devices and their push registrations. */
export const pushDevicesArea = defineArea({
  name: 'push-devices',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: PushDevicesClientEvents,
  registerSections: PushDevicesRegisterSections,
  deciders: [pushDevicesDecider],
  events: PUSH_DEVICE_EVENT_TYPES,
  idSequences: [
    // Registrations recorded before feature level 468 carry a device id the client chose: the
    // sequence then only moves above it, which is harmless.
    { sequence: 'client_device', fields: ['deviceId'] },
  ],
});
