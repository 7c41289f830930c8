import {
  clientDeviceRegistered,
  clientDeviceRemoved,
  legacyTokenAdded,
  legacyTokenEntry,
  PUSH_KEY_ENTRY,
  pushDeviceRegistered,
  pushSecretDigest,
  recorded,
  REGISTRATION_ENTRY,
  replay,
  tokenIdOf,
} from '@app/testing';
import { pushRegistrationsProjection } from './push-registrations.projection';

const after = (events: { type: string; data: object }[]) => replay(pushRegistrationsProjection, recorded(events, 'push_devices-10')).get('10');
const NO_REGISTRATION = {
  push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null, push_token_kind: null,
  push_key_entry_id: null, registration_entry_id: null,
};

describe('pushRegistrationsProjection', () => {
  it('keeps a user\'s devices as Zulip\'s DeviceInfoDict and legacy tokens, with the credential store entries of their secrets (never the secrets)', () =>
    expect(after([pushDeviceRegistered({ at: '2026-01-02T03:04:05.000Z' }), legacyTokenAdded('c0ffee', 'apns')])).toEqual({
      user_id: 10, realm_id: 1,
      devices: {
        1: {
          push_key_id: 2408, push_token_id: tokenIdOf('fcm-token'), pending_push_token_id: null, push_token_last_updated_timestamp: 1767323045,
          push_registration_error_code: null, push_token_kind: 'fcm', push_key_entry_id: PUSH_KEY_ENTRY, registration_entry_id: REGISTRATION_ENTRY,
        },
      },
      legacy_tokens: [{ kind: 'apns', token_digest: pushSecretDigest('c0ffee'), token_entry_id: legacyTokenEntry('c0ffee'), ios_app_id: 'org.zulip.Zulip' }],
    }));

  it('keeps device records: all null until the device registers, gone when removed', () => {
    expect(after([clientDeviceRegistered(1), clientDeviceRegistered(2)])!.devices).toEqual({ 1: NO_REGISTRATION, 2: NO_REGISTRATION });
    expect(Object.keys(after([clientDeviceRegistered(1), clientDeviceRegistered(2), pushDeviceRegistered({ deviceId: 2 }), clientDeviceRemoved(2)])!.devices)).toEqual(['1']);
  });

  it('follows rotations and removals, with their entries', () => {
    const rotatedKey = {
      type: 'PushKeyRotated',
      data: { realmId: 1, userId: 10, deviceId: 1, oldPushKeyId: 2408, pushKeyEntryId: 'key-2', pushKeyDigest: 'd', pushKeyId: 1144, releasedEntryIds: [PUSH_KEY_ENTRY], at: 'x' },
    };
    const rotatedToken = {
      type: 'PushTokenRotated',
      data: {
        realmId: 1, userId: 10, deviceId: 1, oldTokenId: 'a', tokenKind: 'apns', tokenId: 'bmV3', bouncerPublicKey: 'b', registrationEntryId: 'registration-2',
        releasedEntryIds: [REGISTRATION_ENTRY], at: '2026-01-02T00:00:00.000Z',
      },
    };
    const removed = { type: 'LegacyPushTokenRemoved', data: { realmId: 1, userId: 10, kind: 'fcm', tokenDigest: pushSecretDigest('t'), reason: 'replaced_by_e2ee', at: 'x' } };
    const doc = after([pushDeviceRegistered(), rotatedKey, rotatedToken, legacyTokenAdded('t'), legacyTokenAdded('u'), removed]);
    expect(doc!.devices['1']).toMatchObject({ push_key_id: 1144, push_token_id: 'bmV3', push_token_kind: 'apns', push_key_entry_id: 'key-2', registration_entry_id: 'registration-2' });
    expect(doc!.legacy_tokens.map((t) => t.token_entry_id)).toEqual([legacyTokenEntry('u')]);
  });
});
