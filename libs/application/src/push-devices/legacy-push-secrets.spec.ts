import { type PushDeviceEvent, pushDevicesDecider } from '@app/domain';
import { legacyTokenAdded, OTHER_PUSH_KEY, PUSH_KEY, pushDeviceRegistered, pushSecretDigest } from '@app/testing';
import type { RecordedEvent } from '../ports/event-store.port';
import { UpcasterRegistry } from '../shared/event-upcasting';
import { isLegacyPushEvent, legacyPushUpcasters, livePushEntries, splitLegacyPushSecrets } from './legacy-push-secrets';

const recorded = (id: string, type: string, data: object, schemaVersion = 1): RecordedEvent =>
  ({ id, streamId: 'push_devices-10', revision: 0n, position: 1n, type, data, metadata: { schemaVersion }, recordedAt: '2026-01-01T00:00:00.000Z' }) as RecordedEvent;

const base = { realmId: 1, userId: 10, at: '2026-01-01T00:00:00.000Z' };
/** The push-device events as they were written before push secrets left the log. */
const v1 = {
  registered: { ...base, deviceId: 1, pushKey: PUSH_KEY, pushKeyId: 2408, tokenKind: 'fcm', tokenId: 'aWQ=', bouncerPublicKey: 'pub', encryptedPushRegistration: 'sealed-for-bouncer' },
  keyRotated: { ...base, deviceId: 1, oldPushKeyId: 2408, pushKey: OTHER_PUSH_KEY, pushKeyId: 1144 },
  tokenRotated: { ...base, deviceId: 1, oldTokenId: 'aWQ=', tokenKind: 'fcm', tokenId: 'bmV3', bouncerPublicKey: 'pub', encryptedPushRegistration: 'sealed-again' },
  tokenAdded: { ...base, kind: 'fcm', token: 'legacy-fcm-token', tokenId: 'dG9r', iosAppId: null },
  tokenRemoved: { ...base, kind: 'fcm', token: 'legacy-fcm-token', reason: 'removed' },
};

describe('push-device events written with secrets (schema version 1)', () => {
  const registry = new UpcasterRegistry(legacyPushUpcasters);

  it('split into the current shape, naming entries after the event and keeping digests, and the secrets to store', () => {
    expect(splitLegacyPushSecrets('ev-1', 'PushDeviceRegistered', v1.registered)).toEqual({
      data: {
        ...base, deviceId: 1, pushKeyEntryId: 'push_key:ev-1', pushKeyDigest: pushSecretDigest(PUSH_KEY), pushKeyId: 2408, tokenKind: 'fcm', tokenId: 'aWQ=',
        bouncerPublicKey: 'pub', registrationEntryId: 'push_registration:ev-1', releasedEntryIds: [],
      },
      secrets: [
        { id: 'push_key:ev-1', kind: 'push_key', secret: PUSH_KEY },
        { id: 'push_registration:ev-1', kind: 'push_registration', secret: 'sealed-for-bouncer' },
      ],
    });
    expect(splitLegacyPushSecrets('ev-2', 'PushKeyRotated', v1.keyRotated).secrets).toEqual([{ id: 'push_key:ev-2', kind: 'push_key', secret: OTHER_PUSH_KEY }]);
    expect(splitLegacyPushSecrets('ev-3', 'PushTokenRotated', v1.tokenRotated).data).toMatchObject({ registrationEntryId: 'push_registration:ev-3', releasedEntryIds: [] });
    expect(splitLegacyPushSecrets('ev-4', 'LegacyPushTokenAdded', v1.tokenAdded)).toEqual({
      data: { ...base, kind: 'fcm', tokenEntryId: 'push_token:ev-4', tokenDigest: pushSecretDigest('legacy-fcm-token'), tokenId: 'dG9r', iosAppId: null },
      secrets: [{ id: 'push_token:ev-4', kind: 'push_token', secret: 'legacy-fcm-token' }],
    });
    // A removal stores nothing: the token is its addition's.
    expect(splitLegacyPushSecrets('ev-5', 'LegacyPushTokenRemoved', v1.tokenRemoved)).toEqual({
      data: { ...base, kind: 'fcm', tokenDigest: pushSecretDigest('legacy-fcm-token'), reason: 'removed' },
      secrets: [],
    });
    const current = pushDeviceRegistered().data;
    expect(isLegacyPushEvent('PushDeviceRegistered', current)).toBe(false);
    expect(splitLegacyPushSecrets('ev-6', 'PushDeviceRegistered', current)).toEqual({ data: current, secrets: [] });
  });

  it('read back upcast: no secret reaches a projection, a decider or a snapshot, and the decider still works on them', () => {
    for (const type of ['PushDeviceRegistered', 'PushKeyRotated', 'PushTokenRotated', 'LegacyPushTokenAdded', 'LegacyPushTokenRemoved']) expect(registry.currentVersion(type)).toBe(2);
    const events = [
      recorded('ev-1', 'PushDeviceRegistered', v1.registered),
      recorded('ev-2', 'PushKeyRotated', v1.keyRotated),
      recorded('ev-3', 'PushTokenRotated', v1.tokenRotated),
      recorded('ev-4', 'LegacyPushTokenAdded', v1.tokenAdded),
    ].map((e) => registry.upcast(e));
    const text = JSON.stringify(events.map((e) => e.data));
    for (const secret of [PUSH_KEY, OTHER_PUSH_KEY, 'sealed-for-bouncer', 'sealed-again', 'legacy-fcm-token']) expect(text.includes(secret) ? secret : null).toBeNull();
    const state = events.reduce((s, e) => pushDevicesDecider.evolve(s, e as unknown as PushDeviceEvent), pushDevicesDecider.initialState());
    expect(state.devices[1]).toEqual({
      pushKeyDigest: pushSecretDigest(OTHER_PUSH_KEY), pushKeyEntryId: 'push_key:ev-2', pushKeyId: 1144, tokenKind: 'fcm', tokenId: 'bmV3', registrationEntryId: 'push_registration:ev-3',
    });
    expect(state.legacy).toEqual([{ kind: 'fcm', tokenDigest: pushSecretDigest('legacy-fcm-token'), tokenEntryId: 'push_token:ev-4', tokenId: 'dG9r' }]);
    // The old removal (upcast) removes the token the old addition added: they meet by digest.
    const removed = registry.upcast(recorded('ev-5', 'LegacyPushTokenRemoved', v1.tokenRemoved));
    expect(pushDevicesDecider.evolve(state, removed as unknown as PushDeviceEvent).legacy).toEqual([]);
    expect(legacyTokenAdded('legacy-fcm-token').data.tokenDigest).toBe(pushSecretDigest('legacy-fcm-token'));
  });

  it('the entries still in use once the whole stream has happened: what the migration keeps', () => {
    const upcast = (id: string, type: string, data: object) => registry.upcast(recorded(id, type, data)) as unknown as PushDeviceEvent;
    const stream = [
      upcast('ev-1', 'PushDeviceRegistered', v1.registered),
      upcast('ev-2', 'PushKeyRotated', v1.keyRotated),
      upcast('ev-3', 'PushTokenRotated', v1.tokenRotated),
      upcast('ev-4', 'LegacyPushTokenAdded', v1.tokenAdded),
      upcast('ev-5', 'LegacyPushTokenAdded', { ...v1.tokenAdded, kind: 'apns', token: 'c0ffee' }),
      upcast('ev-6', 'LegacyPushTokenRemoved', v1.tokenRemoved),
    ];
    expect([...livePushEntries(stream)].sort()).toEqual(['push_key:ev-2', 'push_registration:ev-3', 'push_token:ev-5']);
    expect(livePushEntries([...stream, { type: 'ClientDeviceRemoved', data: { ...base, deviceId: 1 } }])).toEqual(new Set(['push_token:ev-5']));
  });
});
