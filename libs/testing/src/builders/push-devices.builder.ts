import { createHash } from 'node:crypto';
import type { ClientDeviceRegistered, ClientDeviceRemoved, LegacyPushTokenAdded, PushDeviceRegistered } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** A valid push key: 0x31 then 32 bytes (Zulip's test value). */
export const PUSH_KEY = 'MY+paNlyduYJRQFNZva8w7Gv3PkBua9kIj581F9Vr301';
export const OTHER_PUSH_KEY = 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt';

/** The token id a client sends for a provider token: Base64 of the first 8 bytes of its SHA-256. */
export const tokenIdOf = (token: string) => createHash('sha256').update(token, 'utf8').digest().subarray(0, 8).toString('base64');

/** SHA-256 (hex) of a push secret: the digest the push events carry instead of it. */
export const pushSecretDigest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** The credential store entry names the builders use (a handler uses random ids). */
export const PUSH_KEY_ENTRY = 'push-key-entry-1';
export const REGISTRATION_ENTRY = 'registration-entry-1';
export const legacyTokenEntry = (token: string) => `push-token-entry-${token}`;

export const pushDeviceRegistered = (overrides: Partial<PushDeviceRegistered['data']> = {}): PushDeviceRegistered => ({
  type: 'PushDeviceRegistered',
  data: {
    realmId: 1, userId: 10, deviceId: 1, pushKeyEntryId: PUSH_KEY_ENTRY, pushKeyDigest: pushSecretDigest(PUSH_KEY), pushKeyId: 2408, tokenKind: 'fcm', tokenId: tokenIdOf('fcm-token'),
    bouncerPublicKey: 'bouncer-public-key', registrationEntryId: REGISTRATION_ENTRY, releasedEntryIds: [], at: AT,
    ...overrides,
  },
});

export const legacyTokenAdded = (token: string, kind: 'apns' | 'fcm' = 'fcm', userId = 10): LegacyPushTokenAdded => ({
  type: 'LegacyPushTokenAdded',
  data: {
    realmId: 1, userId, kind, tokenEntryId: legacyTokenEntry(token), tokenDigest: pushSecretDigest(token), tokenId: tokenIdOf(token),
    iosAppId: kind === 'apns' ? 'org.zulip.Zulip' : null, at: AT,
  },
});

export const clientDeviceRegistered = (deviceId = 1, userId = 10): ClientDeviceRegistered => ({
  type: 'ClientDeviceRegistered',
  data: { realmId: 1, userId, deviceId, at: AT },
});

export const clientDeviceRemoved = (deviceId = 1, userId = 10): ClientDeviceRemoved => ({
  type: 'ClientDeviceRemoved',
  data: { realmId: 1, userId, deviceId, at: AT },
});
