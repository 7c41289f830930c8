import { confirmationKeyDigest } from '../shared/confirmation-keys';
import { isLegacySecretEvent, LEGACY_SECRET_TYPES, splitLegacySecrets } from './credential-migration';

describe('the secrets the credential migration takes out of old events', () => {
  it('covers API keys, password hashes, push secrets and email confirmation keys, by type and shape', () => {
    expect([...LEGACY_SECRET_TYPES].sort()).toEqual([
      'EmailChangeConfirmed', 'EmailChangeRequested', 'LegacyPushTokenAdded', 'LegacyPushTokenRemoved', 'PushDeviceRegistered', 'PushKeyRotated', 'PushTokenRotated',
      'UserApiKeyRegenerated', 'UserCreated', 'UserPasswordChanged',
    ]);
    expect(isLegacySecretEvent('UserCreated', { apiKey: 'k' })).toBe(true);
    expect(isLegacySecretEvent('UserCreated', { apiKeyId: 'k' })).toBe(false);
    expect(isLegacySecretEvent('EmailChangeConfirmed', { token: 't' })).toBe(true);
    expect(isLegacySecretEvent('EmailChangeConfirmed', { keyDigest: 'd' })).toBe(false);
    expect(isLegacySecretEvent('LegacyPushTokenAdded', { token: 't' })).toBe(true);
    // A field of that name in another event type is not one of these secrets.
    expect(isLegacySecretEvent('MessageSent', { token: 't' })).toBe(false);
  });

  it('rewrites an old email change to the digest form, with nothing to store', () => {
    const requested = { realmId: 1, userId: 10, newEmail: 'new@acme.test', token: 'confirm-key-1', revokedTokens: ['confirm-key-0'], at: 'T' };
    expect(splitLegacySecrets({ id: 'ev-1', type: 'EmailChangeRequested', data: requested })).toEqual({
      data: { realmId: 1, userId: 10, newEmail: 'new@acme.test', keyDigest: confirmationKeyDigest('confirm-key-1'), revokedKeyDigests: [confirmationKeyDigest('confirm-key-0')], at: 'T' },
      secrets: [],
      schemaVersion: 2,
    });
    expect(splitLegacySecrets({ id: 'ev-2', type: 'EmailChangeConfirmed', data: { realmId: 1, userId: 10, token: 'confirm-key-1' } })).toEqual({
      data: { realmId: 1, userId: 10, keyDigest: confirmationKeyDigest('confirm-key-1') },
      secrets: [],
      schemaVersion: 2,
    });
  });

  it('moves a push secret and an API key into entries named after the event', () => {
    expect(splitLegacySecrets({ id: 'ev-3', type: 'LegacyPushTokenAdded', data: { userId: 10, kind: 'fcm', token: 'tok', tokenId: 'x', iosAppId: null } }).secrets).toEqual([
      { id: 'push_token:ev-3', kind: 'push_token', secret: 'tok' },
    ]);
    expect(splitLegacySecrets({ id: 'ev-4', type: 'UserApiKeyRegenerated', data: { userId: 10, apiKey: 'key' } })).toMatchObject({
      data: { userId: 10, apiKeyId: 'api_key:ev-4' },
      secrets: [{ id: 'api_key:ev-4', kind: 'api_key', secret: 'key' }],
      schemaVersion: 2,
    });
  });
});
