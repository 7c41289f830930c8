import { PUSH_DEVICE_EVENT_TYPES, type PushDeviceEvent } from '@app/domain';
import { NEW_DEVICE_INFO, PUSH_REGISTRATIONS, type PushDeviceInfo, type PushRegistrationDocument } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

const withDevice = (doc: PushRegistrationDocument, deviceId: number, info: PushDeviceInfo): PushRegistrationDocument => ({
  ...doc,
  devices: { ...doc.devices, [String(deviceId)]: info },
});

/**
 * Each user's device records with their E2EE registrations, and legacy tokens, from
 * `push_devices-<userId>`: the credential store entries of their secrets, never the secrets. A registration or token rotation is complete within its request
 * (nothing is sent to a bouncer), so `pending_push_token_id` and the error code stay null.
 */
export const pushRegistrationsProjection = defineProjection<PushRegistrationDocument, PushDeviceEvent>({
  // v2: device records, and the DeviceInfoDict fields of feature level 468.
  // v3: credential store entries and token digests instead of legacy tokens (the v2 documents held
  // tokens: the credential migration, or the servers' boot, drops them before v3 replays).
  name: 'push_registrations.v3',
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
          push_key_entry_id: e.data.pushKeyEntryId, registration_entry_id: e.data.registrationEntryId,
        });
      case 'PushKeyRotated': {
        const device = doc.devices[String(e.data.deviceId)];
        return device ? withDevice(doc, e.data.deviceId, { ...device, push_key_id: e.data.pushKeyId, push_key_entry_id: e.data.pushKeyEntryId }) : doc;
      }
      case 'PushTokenRotated': {
        const device = doc.devices[String(e.data.deviceId)];
        if (!device) return doc;
        return withDevice(doc, e.data.deviceId, {
          ...device, push_token_id: e.data.tokenId, push_token_kind: e.data.tokenKind, pending_push_token_id: null, registration_entry_id: e.data.registrationEntryId,
          push_registration_error_code: null, push_token_last_updated_timestamp: unixSeconds(e.data.at),
        });
      }
      case 'LegacyPushTokenAdded': {
        const { kind, tokenDigest, tokenEntryId, iosAppId } = e.data;
        return { ...doc, legacy_tokens: [...doc.legacy_tokens, { kind, token_digest: tokenDigest, token_entry_id: tokenEntryId, ios_app_id: iosAppId }] };
      }
      case 'LegacyPushTokenRemoved':
        return { ...doc, legacy_tokens: doc.legacy_tokens.filter((t) => !(t.kind === e.data.kind && t.token_digest === e.data.tokenDigest)) };
      default:
        return doc;
    }
  },
});
