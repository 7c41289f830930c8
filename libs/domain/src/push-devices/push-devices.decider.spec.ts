import {
  clientDeviceRegistered,
  clientDeviceRemoved,
  deciderSpec,
  legacyTokenAdded,
  legacyTokenEntry,
  OTHER_PUSH_KEY,
  PUSH_KEY,
  PUSH_KEY_ENTRY,
  pushDeviceRegistered,
  pushSecretDigest,
  REGISTRATION_ENTRY,
  tokenIdOf,
} from '@app/testing';
import {
  decodeStrictBase64,
  PushRegistrationError,
  pushDevicesDecider,
  type PushDevicesCommand,
  PushServiceNotConfiguredError,
  type RegisterPushDevice,
} from '@app/domain';

const given = deciderSpec(pushDevicesDecider);
const AT = '2026-01-01T00:00:00.000Z';
const TOKEN_ID = tokenIdOf('fcm-token');
/** What the handler puts in the command for a push key it stored: the key (to be checked), its digest and entry. */
const keyOf = (pushKey: string, pushKeyId: number, pushKeyEntryId = PUSH_KEY_ENTRY) => ({ pushKey, pushKeyId, pushKeyDigest: pushSecretDigest(pushKey), pushKeyEntryId });
const keyFields = keyOf(PUSH_KEY, 2408);
const tokenFields = { tokenKind: 'fcm' as const, tokenId: TOKEN_ID, bouncerPublicKey: 'bouncer-public-key', registrationEntryId: REGISTRATION_ENTRY };

const register = (fields: Partial<RegisterPushDevice['data']>, serviceConfigured = true): PushDevicesCommand => ({
  type: 'RegisterPushDevice', data: { realmId: 1, userId: 10, now: AT, serviceConfigured, deviceId: 1, ...fields },
});
const meta = { realmId: 1, userId: 10, now: AT, serviceConfigured: true };
const device = clientDeviceRegistered(1);

describe('pushDevicesDecider', () => {
  describe('RegisterPushDevice', () => {
    it('registers with both the push key fields and the token fields', () =>
      given([device]).when(register({ ...keyFields, ...tokenFields })).then([pushDeviceRegistered({ at: AT })]));

    it('answers PUSH_SERVICE_NOT_CONFIGURED when no push service is configured, before anything else', () =>
      given([]).when(register({}, false)).thenThrows(PushServiceNotConfiguredError, 'Server is not configured to use push notification service.'));

    it('needs a device of the user (check_device_id), before checking the fields', () => {
      given([]).when(register({ ...keyFields, ...tokenFields })).thenThrows(PushRegistrationError, 'Invalid `device_id`');
      given([clientDeviceRegistered(2)]).when(register({})).thenThrows(PushRegistrationError, 'Invalid `device_id`');
      given([device, clientDeviceRemoved(1)]).when(register({ ...keyFields, ...tokenFields })).thenThrows(PushRegistrationError, 'Invalid `device_id`');
    });

    it('needs all the key fields or all the token fields', () => {
      const message = 'Missing parameters: must provide either all push key fields, all token fields, or both.';
      given([device]).when(register({})).thenThrows(PushRegistrationError, message);
      given([device]).when(register({ ...keyFields, pushKeyId: undefined, ...tokenFields, tokenId: undefined })).thenThrows(PushRegistrationError, message);
    });

    it.each([
      ['@abcdefg', 'not Base64'],
      ['abcd', 'not 33 bytes'],
      [Buffer.concat([Buffer.from([0x32]), decodeAsBuffer(PUSH_KEY).subarray(1)]).toString('base64'), 'not prefixed 0x31'],
      [PUSH_KEY.slice(0, -1), 'badly padded'],
    ])('refuses the push key %s (%s)', (pushKey) => given([device]).when(register({ ...tokenFields, ...keyOf(pushKey, 1) })).thenThrows(PushRegistrationError, 'Invalid `push_key`'));

    it('refuses a token id that is not Base64', () =>
      given([device]).when(register({ ...keyFields, ...tokenFields, tokenId: 'not base64!' })).thenThrows(PushRegistrationError, '`token_id` is not Base64 encoded'));

    it('rotates the key of a registration, and needs one', () => {
      given([device]).when(register(keyFields)).thenThrows(PushRegistrationError, 'No push registration exists to rotate key for.');
      given([device, pushDeviceRegistered()]).when(register(keyOf(OTHER_PUSH_KEY, 1144, 'new-key-entry'))).then([
        {
          type: 'PushKeyRotated',
          data: {
            realmId: 1, userId: 10, deviceId: 1, oldPushKeyId: 2408, pushKeyEntryId: 'new-key-entry', pushKeyDigest: pushSecretDigest(OTHER_PUSH_KEY), pushKeyId: 1144,
            releasedEntryIds: [PUSH_KEY_ENTRY], at: AT,
          },
        },
      ]);
      given([device, pushDeviceRegistered()]).when(register(keyFields)).thenNothingHappened();
    });

    it('checks for a registration before checking the key of a rotation', () =>
      given([device]).when(register(keyOf('@@', 1))).thenThrows(PushRegistrationError, 'No push registration exists to rotate key for.'));

    it('rotates the token of a registration, and needs one', () => {
      const newToken = { ...tokenFields, tokenId: tokenIdOf('new-token') };
      given([device]).when(register(newToken)).thenThrows(PushRegistrationError, 'No push registration exists to rotate token for.');
      given([device, pushDeviceRegistered()]).when(register({ ...newToken, registrationEntryId: 'new-registration' })).thenMatches([
        { type: 'PushTokenRotated', data: { oldTokenId: TOKEN_ID, tokenId: tokenIdOf('new-token'), registrationEntryId: 'new-registration', releasedEntryIds: [REGISTRATION_ENTRY] } },
      ]);
      given([device, pushDeviceRegistered()]).when(register(tokenFields)).thenNothingHappened();
    });

    it('is idempotent, and registers again when anything differs', () => {
      given([device, pushDeviceRegistered()]).when(register({ ...keyFields, ...tokenFields })).thenNothingHappened();
      given([device, pushDeviceRegistered()]).when(register({ ...keyFields, ...tokenFields, tokenKind: 'apns' })).thenMatches([{ type: 'PushDeviceRegistered' }]);
      given([device, pushDeviceRegistered()]).when(register({ ...keyOf(OTHER_PUSH_KEY, 2408), ...tokenFields })).thenMatches([{ type: 'PushDeviceRegistered' }]);
    });

    it('names the entries of the secrets, never the secrets, and releases those of the registration it replaces', () => {
      given([device]).when(register({ ...keyFields, ...tokenFields })).thenMatches([{ type: 'PushDeviceRegistered', data: { releasedEntryIds: [] } }]);
      given([device, pushDeviceRegistered()])
        .when(register({ ...keyOf(OTHER_PUSH_KEY, 1144, 'key-2'), ...tokenFields, registrationEntryId: 'registration-2' }))
        .then([
          {
            type: 'PushDeviceRegistered',
            data: {
              realmId: 1, userId: 10, deviceId: 1, pushKeyEntryId: 'key-2', pushKeyDigest: pushSecretDigest(OTHER_PUSH_KEY), pushKeyId: 1144, tokenKind: 'fcm', tokenId: TOKEN_ID,
              bouncerPublicKey: 'bouncer-public-key', registrationEntryId: 'registration-2', releasedEntryIds: [PUSH_KEY_ENTRY, REGISTRATION_ENTRY], at: AT,
            },
          },
        ]);
    });

    it('keeps devices apart', () => given([device, clientDeviceRegistered(2), pushDeviceRegistered({ deviceId: 1 })]).when(register({ ...keyFields, deviceId: 2 })).thenThrows(PushRegistrationError, 'No push registration exists to rotate key for.'));

    it('removes the legacy registration of the same token, and only that one', () =>
      given([device, legacyTokenAdded('fcm-token'), legacyTokenAdded('other-token')]).when(register({ ...keyFields, ...tokenFields })).thenMatches([
        { type: 'PushDeviceRegistered' },
        { type: 'LegacyPushTokenRemoved', data: { kind: 'fcm', tokenDigest: pushSecretDigest('fcm-token'), tokenEntryId: legacyTokenEntry('fcm-token'), reason: 'replaced_by_e2ee' } },
      ]));

    it('removes it on a token rotation too', () =>
      given([device, pushDeviceRegistered(), legacyTokenAdded('new-token')]).when(register({ ...tokenFields, tokenId: tokenIdOf('new-token') })).thenMatches([
        { type: 'PushTokenRotated' },
        { type: 'LegacyPushTokenRemoved', data: { tokenEntryId: legacyTokenEntry('new-token') } },
      ]));
  });

  describe('client devices', () => {
    const registerDevice = (deviceId: number, serviceConfigured = false): PushDevicesCommand => ({ type: 'RegisterClientDevice', data: { ...meta, serviceConfigured, deviceId } });
    const removeDevice = (deviceId: number): PushDevicesCommand => ({ type: 'RemoveClientDevice', data: { ...meta, deviceId } });

    it('registers a device under the id it is given, with or without a push service', () =>
      given([]).when(registerDevice(7)).then([{ type: 'ClientDeviceRegistered', data: { realmId: 1, userId: 10, deviceId: 7, at: AT } }]));

    it('removes a device of the user; any other id is "Invalid `device_id`"', () => {
      given([clientDeviceRegistered(7)]).when(removeDevice(7)).then([{ type: 'ClientDeviceRemoved', data: { realmId: 1, userId: 10, deviceId: 7, releasedEntryIds: [], at: AT } }]);
      given([clientDeviceRegistered(7)]).when(removeDevice(8)).thenThrows(PushRegistrationError, 'Invalid `device_id`');
      given([clientDeviceRegistered(7), clientDeviceRemoved(7)]).when(removeDevice(7)).thenThrows(PushRegistrationError, 'Invalid `device_id`');
    });

    it('removes a device with its push registration', () =>
      given([clientDeviceRegistered(1), pushDeviceRegistered(), clientDeviceRemoved(1)]).when(register({ ...keyFields, ...tokenFields })).thenThrows(PushRegistrationError, 'Invalid `device_id`'));

    it('releases the entries of the removed device\'s registration', () =>
      given([clientDeviceRegistered(1), pushDeviceRegistered()]).when(removeDevice(1)).thenMatches([
        { type: 'ClientDeviceRemoved', data: { deviceId: 1, releasedEntryIds: [PUSH_KEY_ENTRY, REGISTRATION_ENTRY] } },
      ]));

    it('knows a device named by a registration recorded before device records existed', () =>
      given([pushDeviceRegistered({ deviceId: 3 })]).when(removeDevice(3)).thenMatches([{ type: 'ClientDeviceRemoved', data: { deviceId: 3 } }]));
  });

  describe('legacy tokens', () => {
    const add = (token: string, tokenEntryId = 'new-entry'): PushDevicesCommand => ({
      type: 'AddLegacyPushToken', data: { ...meta, kind: 'fcm', tokenDigest: pushSecretDigest(token), tokenEntryId, tokenId: tokenIdOf(token), iosAppId: null },
    });
    const remove = (token: string, serviceConfigured = false): PushDevicesCommand => ({
      type: 'RemoveLegacyPushToken', data: { ...meta, serviceConfigured, kind: 'fcm', tokenDigest: pushSecretDigest(token) },
    });

    it('adds a token once, naming its entry and its digest', () => {
      given([]).when(add('t1')).then([
        { type: 'LegacyPushTokenAdded', data: { realmId: 1, userId: 10, kind: 'fcm', tokenEntryId: 'new-entry', tokenDigest: pushSecretDigest('t1'), tokenId: tokenIdOf('t1'), iosAppId: null, at: AT } },
      ]);
      given([legacyTokenAdded('t1')]).when(add('t1')).thenNothingHappened();
    });

    it('removes a token by its digest, releasing the entry its addition named; an unknown one is an error without a push service', () => {
      given([legacyTokenAdded('t1'), legacyTokenAdded('t2')]).when(remove('t1')).then([
        { type: 'LegacyPushTokenRemoved', data: { realmId: 1, userId: 10, kind: 'fcm', tokenDigest: pushSecretDigest('t1'), tokenEntryId: legacyTokenEntry('t1'), reason: 'removed', at: AT } },
      ]);
      given([legacyTokenAdded('t1'), { type: 'LegacyPushTokenRemoved', data: { realmId: 1, userId: 10, kind: 'fcm', tokenDigest: pushSecretDigest('t1'), reason: 'removed', at: AT } }])
        .when(remove('t1'))
        .thenThrows(PushRegistrationError, 'Token does not exist');
      given([]).when(remove('t1')).thenThrows(PushRegistrationError, 'Token does not exist');
      given([]).when(remove('t1', true)).thenNothingHappened();
    });
  });
});

function decodeAsBuffer(text: string): Buffer {
  return Buffer.from(decodeStrictBase64(text)!);
}
