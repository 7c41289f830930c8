import { PUSH_DEVICE_EVENT_TYPES, type PushDeviceEvent } from '@app/domain';
import { PUSH_REGISTRATIONS, type PushRegistrationDocument, type RecordedEvent } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

const asEvent = (event: RecordedEvent) => ({ type: event.type, data: event.data }) as PushDeviceEvent;

/** Each user's push registrations (E2EE devices and legacy tokens), from `push_devices-<userId>`. */
export const pushRegistrationsProjection = defineProjection<PushRegistrationDocument>({
  name: 'push_registrations',
  collection: { name: PUSH_REGISTRATIONS, fields: [{ name: 'realm_id', type: 'number' }] },
  handles: PUSH_DEVICE_EVENT_TYPES,
  idsOf: (event) => [String(asEvent(event).data.userId)],
  evolve: (existing, event) => {
    const e = asEvent(event);
    const doc: PushRegistrationDocument = existing ?? { user_id: e.data.userId, realm_id: e.data.realmId, devices: {}, legacy_tokens: [] };
    switch (e.type) {
      case 'PushDeviceRegistered':
        return {
          ...doc,
          devices: {
            ...doc.devices,
            [String(e.data.deviceId)]: {
              push_key_id: e.data.pushKeyId, push_token_id: e.data.tokenId, push_token_kind: e.data.tokenKind,
              push_token_last_updated_timestamp: unixSeconds(e.data.at),
            },
          },
        };
      case 'PushKeyRotated': {
        const device = doc.devices[String(e.data.deviceId)];
        return device ? { ...doc, devices: { ...doc.devices, [String(e.data.deviceId)]: { ...device, push_key_id: e.data.pushKeyId } } } : doc;
      }
      case 'PushTokenRotated': {
        const device = doc.devices[String(e.data.deviceId)];
        if (!device) return doc;
        const rotated = { ...device, push_token_id: e.data.tokenId, push_token_kind: e.data.tokenKind, push_token_last_updated_timestamp: unixSeconds(e.data.at) };
        return { ...doc, devices: { ...doc.devices, [String(e.data.deviceId)]: rotated } };
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
