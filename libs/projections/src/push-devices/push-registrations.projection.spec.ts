import { clientDeviceRegistered, clientDeviceRemoved, legacyTokenAdded, pushDeviceRegistered, recorded, replay, tokenIdOf } from '@app/testing';
import { pushRegistrationsProjection } from './push-registrations.projection';

const after = (events: { type: string; data: object }[]) => replay(pushRegistrationsProjection, recorded(events, 'push_devices-10')).get('10');

describe('pushRegistrationsProjection', () => {
  it('keeps a user\'s devices as Zulip\'s DeviceInfoDict (no secrets) and legacy tokens', () =>
    expect(after([pushDeviceRegistered({ at: '2026-01-02T03:04:05.000Z' }), legacyTokenAdded('c0ffee', 'apns')])).toEqual({
      user_id: 10, realm_id: 1,
      devices: {
        1: {
          push_key_id: 2408, push_token_id: tokenIdOf('fcm-token'), pending_push_token_id: null, push_token_last_updated_timestamp: 1767323045,
          push_registration_error_code: null, push_token_kind: 'fcm',
        },
      },
      legacy_tokens: [{ kind: 'apns', token: 'c0ffee', ios_app_id: 'org.zulip.Zulip' }],
    }));

  it('keeps device records: all null until the device registers, gone when removed', () => {
    expect(after([clientDeviceRegistered(1), clientDeviceRegistered(2)])!.devices).toEqual({
      1: { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null, push_token_kind: null },
      2: { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null, push_token_kind: null },
    });
    expect(Object.keys(after([clientDeviceRegistered(1), clientDeviceRegistered(2), pushDeviceRegistered({ deviceId: 2 }), clientDeviceRemoved(2)])!.devices)).toEqual(['1']);
  });

  it('follows rotations and removals', () => {
    const rotatedKey = { type: 'PushKeyRotated', data: { realmId: 1, userId: 10, deviceId: 1, oldPushKeyId: 2408, pushKey: 'k', pushKeyId: 1144, at: 'x' } };
    const rotatedToken = {
      type: 'PushTokenRotated',
      data: { realmId: 1, userId: 10, deviceId: 1, oldTokenId: 'a', tokenKind: 'apns', tokenId: 'bmV3', bouncerPublicKey: 'b', encryptedPushRegistration: 'e', at: '2026-01-02T00:00:00.000Z' },
    };
    const removed = { type: 'LegacyPushTokenRemoved', data: { realmId: 1, userId: 10, kind: 'fcm', token: 't', reason: 'replaced_by_e2ee', at: 'x' } };
    const doc = after([pushDeviceRegistered(), rotatedKey, rotatedToken, legacyTokenAdded('t'), removed]);
    expect(doc!.devices['1']).toMatchObject({ push_key_id: 1144, push_token_id: 'bmV3', push_token_kind: 'apns' });
    expect(doc!.legacy_tokens).toEqual([]);
  });
});
