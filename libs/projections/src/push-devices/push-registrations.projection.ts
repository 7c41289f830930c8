import { PUSH_DEVICE_EVENT_TYPES, type PushDeviceEvent } from '@app/domain';
import { NEW_DEVICE_INFO, PUSH_REGISTRATIONS, type PushDeviceInfo, type PushRegistrationDocument } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

const withDevice = (doc: PushRegistrationDocument, deviceId: number, info: PushDeviceInfo): PushRegistrationDocument => ({
  ...doc,
  devices: { ...doc.devices, [String(deviceId)]: info },
});

/**
 * Each user's device records with their E2EE registrations, and legacy tokens, from
 * `push_devices-<userId>`. A registration or token rotation is complete within its request
 * (nothing is sent to a bouncer), so `pending_push_token_id` and the error code stay null.
 */
export const pushRegistrationsProjection = defineProjection<PushRegistrationDocument, PushDeviceEvent>({
  // v2: device records, and the DeviceInfoDict fields of feature level 468.
  name: 'push_registrations.v2',
  collection: { name: PUSH_REGISTRATIONS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: PUSH_DEVICE_EVENT_TYPES,
  idsOf: (event) => [String(event.data.userId)],
  evolve: (existing, e) => {
    const doc: PushRegistrationDocument = existing ?? { user_id: e.data.userId, realm_id: e.data.realmId, devices: {}, legacy_tokens: [] };
    switch (e.type) {
      case 'ClientDeviceRegistered':
        return withDevice(doc, e.data.deviceId, NEW_DEVICE_INFO);
      case 'ClientDeviceRemoved': {
        const devices = { ...doc.devices };
        delete devices[String(e.data.deviceId)];
        return { ...doc, devices };
      }
      case 'PushDeviceRegistered':
        return withDevice(doc, e.data.deviceId, {
          ...NEW_DEVICE_INFO,
          push_key_id: e.data.pushKeyId, push_token_id: e.data.tokenId, push_token_kind: e.data.tokenKind,
          push_token_last_updated_timestamp: unixSeconds(e.data.at),
        });
      case 'PushKeyRotated': {
        const device = doc.devices[String(e.data.deviceId)];
        return device ? withDevice(doc, e.data.deviceId, { ...device, push_key_id: e.data.pushKeyId }) : doc;
      }
      case 'PushTokenRotated': {
        const device = doc.devices[String(e.data.deviceId)];
        if (!device) return doc;
        return withDevice(doc, e.data.deviceId, {
          ...device, push_token_id: e.data.tokenId, push_token_kind: e.data.tokenKind, pending_push_token_id: null,
          push_registration_error_code: null, push_token_last_updated_timestamp: unixSeconds(e.data.at),
        });
      }
      case 'LegacyPushTokenAdded':
        return { ...doc, legacy_tokens: [...doc.legacy_tokens, { kind: e.data.kind, token: e.data.token, ios_app_id: e.data.iosAppId }] };
      case 'LegacyPushTokenRemoved':
        return { ...doc, legacy_tokens: doc.legacy_tokens.filter((t) => !(t.kind === e.data.kind && t.token === e.data.token)) };
      default:
        return doc;
    }
  },
});
